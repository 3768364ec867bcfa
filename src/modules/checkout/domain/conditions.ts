/**
 * When a promotion counts and which lines it covers (docs/checkout.md "Promotions").
 * Pure: `now` and the time zone are arguments; Intl only reads the zone's rules.
 */
import type { CartLine, MemberFacts, Promotion, ProductFacts, TimeOfDay } from './types.js';

export const MINUTES_PER_DAY = 1440;

/** `HH:MM` of a 24-hour clock → minutes since midnight; anything else → null. */
export function parseClockTime(value: string | null): number | null {
  if (value === null) return null;
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight of an instant in a time zone. */
export function minutesInTimezone(epochMs: number, timezone: string): number {
  let format = clockFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    clockFormats.set(timezone, format);
  }
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(epochMs)) {
    if (part.type === 'hour') hour = Number(part.value);
    if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** The request's `current_time`, or the shop's local time now when it is absent or malformed. */
export function localMinutes(currentTime: string | null, now: number, timezone: string): number {
  return parseClockTime(currentTime) ?? minutesInTimezone(now, timezone);
}

/**
 * A window [from, to) of the day; one with from > to wraps midnight (22:00–02:00), and
 * one with from = to is the whole day.
 */
export function isWithinTimeOfDay(window: TimeOfDay, minutes: number): boolean {
  if (window.from === window.to) return true;
  if (window.from < window.to) return minutes >= window.from && minutes < window.to;
  return minutes >= window.from || minutes < window.to;
}

/**
 * A promotion counts when it is `active` or `scheduled` and the request's time lies in
 * [startsAt, endsAt): a scheduled promotion starts by the clock of the request, not by a
 * job that may run late. Drafts, inactive and archived promotions never count.
 */
export function isPromotionLive(promotion: Promotion, now: number): boolean {
  if (promotion.status !== 'active' && promotion.status !== 'scheduled') return false;
  if (promotion.startsAt !== null && now < promotion.startsAt) return false;
  if (promotion.endsAt !== null && now >= promotion.endsAt) return false;
  return true;
}

/** What the order-wide conditions are checked against. */
export interface OrderFacts {
  /** Minor units, before any discount. */
  readonly orderTotal: number;
  readonly member: MemberFacts | null;
  readonly paymentType: string | null;
  readonly stream: string | null;
  readonly locationId: string | null;
  readonly minutes: number;
}

function allows(list: readonly string[], value: string | null): boolean {
  return list.length === 0 || (value !== null && list.includes(value));
}

/** The conditions that concern the whole order; a list left empty does not restrict. */
export function orderConditionsHold(promotion: Promotion, order: OrderFacts): boolean {
  const c = promotion.conditions;
  if (c.minOrderTotal !== null && order.orderTotal < c.minOrderTotal) return false;
  if (!allows(c.streams, order.stream)) return false;
  if (!allows(c.paymentTypes, order.paymentType)) return false;
  if (!allows(c.locationIds, order.locationId)) return false;
  if (c.timeOfDay !== null && !isWithinTimeOfDay(c.timeOfDay, order.minutes)) return false;
  if (!allows(c.memberLevels, order.member?.levelCode ?? null)) return false;
  if (c.firstOrderOnly && !(order.member?.isFirstOrder ?? false)) return false;
  return true;
}

/**
 * Whether a promotion concerns a line. Without product ids, categories or special prices
 * it concerns every line. Any of those binds it to products, and a product bound
 * promotion never concerns a product the feed does not know (issue 14: unknown product
 * ids get no product-bound discount). A product matches by id or by one of its
 * categories, whose ancestors are included (a promotion on a category covers its
 * descendants). A special price concerns only the products it lists.
 */
export function promotionCovers(promotion: Promotion, line: CartLine, product: ProductFacts | undefined): boolean {
  const { productIds, categoryIds } = promotion.conditions;
  const discount = promotion.discount;
  const listed = discount?.kind === 'special_price' ? discount.prices : null;
  if (productIds.length === 0 && categoryIds.length === 0 && listed === null) return true;
  if (product === undefined) return false;
  if (listed !== null && !listed.some((p) => p.productId === line.productId)) return false;
  if (productIds.length === 0 && categoryIds.length === 0) return true;
  if (productIds.includes(line.productId)) return true;
  return product.categoryIds.some((id) => categoryIds.includes(id));
}
