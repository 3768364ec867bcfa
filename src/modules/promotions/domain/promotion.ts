/**
 * A promotion as the module and the checkout see it (docs/promotions.md): plain data in
 * integer units, no I/O. Percents are hundredths of a percent (12.5% is 1250), amounts
 * minor units (kopecks), times milliseconds since the epoch.
 */

export const PROMOTION_STATUSES = ['draft', 'scheduled', 'inactive', 'active', 'archived'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

export type Discount =
  /** `value`: hundredths of a percent, 0 to 10,000, taken off each matching line. */
  | { readonly type: 'percent'; readonly value: number }
  /** `value`: minor units, greater than 0, spread over the matching lines. */
  | { readonly type: 'fixed'; readonly value: number };

/** A window of the shop's local day, "HH:MM" to "HH:MM"; `from` after `to` wraps past midnight. */
export interface TimeOfDay {
  readonly from: string;
  readonly to: string;
}

/** Everything an admin sets; the stored promotion adds its id and times. */
export interface PromotionInput {
  readonly name: string;
  readonly status: PromotionStatus;
  readonly startsAt: number | null;
  readonly endsAt: number | null;
  /** Higher first when promotions combine (docs/promotions.md). */
  readonly priority: number;
  readonly discount: Discount;
  readonly productIds: readonly string[];
  readonly categoryIds: readonly string[];
  /** Minor units; null: no minimum. */
  readonly minOrderTotal: number | null;
  readonly streams: readonly string[];
  readonly paymentTypes: readonly string[];
  readonly byPromoCode: boolean;
  /** Hundredths of a percent of the order credited as extra bonuses. */
  readonly bonusRewardPercent: number;
  readonly locations: readonly string[];
  readonly timeOfDay: TimeOfDay | null;
  /** Loyalty level codes; empty: any buyer, member or not. */
  readonly memberLevels: readonly string[];
  readonly firstOrderOnly: boolean;
  /** Product id → price in minor units. */
  readonly specialPrices: Readonly<Record<string, number>>;
}

/**
 * A new promotion from the fields given, the others at their defaults: no dates, no
 * conditions (every discountable line, any buyer, any time), no codes, no extra reward.
 */
export function newPromotion(fields: Pick<PromotionInput, 'name' | 'status' | 'discount'> & Partial<PromotionInput>): PromotionInput {
  return {
    startsAt: null,
    endsAt: null,
    priority: 0,
    productIds: [],
    categoryIds: [],
    minOrderTotal: null,
    streams: [],
    paymentTypes: [],
    byPromoCode: false,
    bonusRewardPercent: 0,
    locations: [],
    timeOfDay: null,
    memberLevels: [],
    firstOrderOnly: false,
    specialPrices: {},
    ...fields,
  };
}

export interface Promotion extends PromotionInput {
  readonly id: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Bounds of every list and string of a promotion (the admin schemas state the same). */
export const PROMOTION_LIMITS = {
  nameLength: 255,
  idLength: 255,
  productIds: 10_000,
  categoryIds: 10_000,
  locations: 10_000,
  specialPrices: 10_000,
  streams: 20,
  paymentTypes: 50,
  memberLevels: 100,
  tagLength: 64,
  priority: 1_000_000,
} as const;

/**
 * Which status changes PATCH allows (docs/promotions.md, "Statuses"). A draft may go
 * anywhere; once published a promotion moves between scheduled, active and inactive and
 * never back to draft (its codes may have been used); archived is final.
 */
const TRANSITIONS: Readonly<Record<PromotionStatus, readonly PromotionStatus[]>> = {
  draft: ['draft', 'scheduled', 'inactive', 'active', 'archived'],
  scheduled: ['scheduled', 'inactive', 'active', 'archived'],
  inactive: ['inactive', 'scheduled', 'active', 'archived'],
  active: ['active', 'scheduled', 'inactive', 'archived'],
  archived: [],
};

export function canTransition(from: PromotionStatus, to: PromotionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Whether the promotion applies at `now` (the request's time, not a job's): `active`
 * within its bounds where it has them, `scheduled` from `starts_at` (inclusive) until
 * `ends_at` (exclusive); every other status never.
 */
export function isActiveAt(p: Pick<PromotionInput, 'status' | 'startsAt' | 'endsAt'>, now: number): boolean {
  if (p.status !== 'active' && p.status !== 'scheduled') return false;
  if (p.status === 'scheduled' && p.startsAt === null) return false;
  if (p.startsAt !== null && now < p.startsAt) return false;
  if (p.endsAt !== null && now >= p.endsAt) return false;
  return true;
}

const HH_MM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

/** "HH:MM" → minutes since midnight; null when malformed (25:99). */
export function minuteOfDay(text: string): number | null {
  const m = HH_MM.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Whether a minute of the day falls in the window: from inclusive, to exclusive, wrapping midnight. */
export function inTimeOfDay(window: TimeOfDay, minute: number): boolean {
  const from = minuteOfDay(window.from);
  const to = minuteOfDay(window.to);
  if (from === null || to === null) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

export type Invalid = { readonly ok: false; readonly field: string; readonly message: string };
export type Validation = { readonly ok: true } | Invalid;

const invalid = (field: string, requirement: string): Invalid => ({
  ok: false,
  field,
  message: `Field \`${field}\` ${requirement}.`,
});

/**
 * The rules of a whole promotion, after a PATCH too: the bounds, and what no schema can
 * say alone (ends after starts, scheduled needs a start, a time window that is one).
 */
export function validatePromotion(p: PromotionInput): Validation {
  const L = PROMOTION_LIMITS;
  if (p.name.trim() === '' || p.name.length > L.nameLength) return invalid('name', `must be 1 to ${L.nameLength} characters`);
  if (!PROMOTION_STATUSES.includes(p.status)) return invalid('status', `must be one of ${PROMOTION_STATUSES.join(', ')}`);
  if (p.status === 'scheduled' && p.startsAt === null) return invalid('starts_at', 'is required for a scheduled promotion');
  if (p.startsAt !== null && p.endsAt !== null && p.endsAt <= p.startsAt) return invalid('ends_at', 'must be after `starts_at`');
  if (!Number.isInteger(p.priority) || Math.abs(p.priority) > L.priority) {
    return invalid('priority', `must be an integer from -${L.priority} to ${L.priority}`);
  }
  if (p.discount.type === 'percent' && !(Number.isInteger(p.discount.value) && p.discount.value >= 0 && p.discount.value <= 10_000)) {
    return invalid('discount.value', 'must be a percent from 0 to 100');
  }
  if (p.discount.type === 'fixed' && !(Number.isInteger(p.discount.value) && p.discount.value > 0)) {
    return invalid('discount.value', 'must be greater than 0');
  }
  if (!(Number.isInteger(p.bonusRewardPercent) && p.bonusRewardPercent >= 0 && p.bonusRewardPercent <= 10_000)) {
    return invalid('bonus_reward_percent', 'must be a percent from 0 to 100');
  }
  if (p.minOrderTotal !== null && !(Number.isInteger(p.minOrderTotal) && p.minOrderTotal >= 0)) {
    return invalid('min_order_total', 'must be 0 or more');
  }
  const lists: readonly [string, readonly string[], number, number][] = [
    ['product_ids', p.productIds, L.productIds, L.idLength],
    ['category_ids', p.categoryIds, L.categoryIds, L.idLength],
    ['locations', p.locations, L.locations, L.idLength],
    ['streams', p.streams, L.streams, L.tagLength],
    ['payment_types', p.paymentTypes, L.paymentTypes, L.tagLength],
    ['member_levels', p.memberLevels, L.memberLevels, L.tagLength],
  ];
  for (const [field, list, max, length] of lists) {
    if (list.length > max) return invalid(field, `must have at most ${max} items`);
    const bad = list.findIndex((item) => item === '' || item.length > length);
    if (bad >= 0) return invalid(`${field}[${bad}]`, `must be 1 to ${length} characters`);
  }
  if (p.timeOfDay !== null) {
    const from = minuteOfDay(p.timeOfDay.from);
    const to = minuteOfDay(p.timeOfDay.to);
    if (from === null) return invalid('time_of_day.from', 'must be a time HH:MM');
    if (to === null) return invalid('time_of_day.to', 'must be a time HH:MM');
    if (from === to) return invalid('time_of_day.to', 'must differ from `time_of_day.from`');
  }
  const prices = Object.entries(p.specialPrices);
  if (prices.length > L.specialPrices) return invalid('special_prices', `must have at most ${L.specialPrices} products`);
  for (const [productId, price] of prices) {
    if (productId === '' || productId.length > L.idLength)
      return invalid('special_prices', `must name products of 1 to ${L.idLength} characters`);
    if (!(Number.isInteger(price) && price > 0)) return invalid(`special_prices.${productId}`, 'must be greater than 0');
  }
  return { ok: true };
}
