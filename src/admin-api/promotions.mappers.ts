import { AppError } from '../errors.js';
import { parseHundredths, parsePositiveAmount, toUnits } from '../modules/loyalty/domain/amount.js';
import { newPromotion, type Discount, type Promotion, type PromotionInput } from '../modules/promotions/domain/promotion.js';
import type { CreatePromotionBody, PatchPromotionBody, PromotionBody } from './promotions.schemas.js';

/**
 * The admin edge of promotions: currency units and percents in, minor units and
 * hundredths behind (modules/loyalty/domain/amount.ts), ISO times to milliseconds.
 */

function refuse(field: string, requirement: string): never {
  throw new AppError('VALIDATION_FAILED', `Field \`${field}\` ${requirement}.`, { field });
}

export function amountField(field: string, units: number): number {
  const parsed = parsePositiveAmount(units);
  return parsed.ok ? parsed.minor : refuse(field, parsed.requirement);
}

function amountOrZero(field: string, units: number): number {
  return units === 0 ? 0 : amountField(field, units);
}

function percentField(field: string, value: number): number {
  const parsed = parseHundredths(value, 0, 100);
  return parsed.ok ? parsed.minor : refuse(field, parsed.requirement);
}

export function timeField(field: string, text: string): number {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : refuse(field, 'must be an ISO 8601 date-time');
}

function discountFrom(body: { type: 'percent' | 'fixed'; value: number }): Discount {
  return body.type === 'percent'
    ? { type: 'percent', value: percentField('discount.value', body.value) }
    : { type: 'fixed', value: amountField('discount.value', body.value) };
}

/** The fields a body sends, converted; absent ones stay absent (a PATCH changes only those). */
export function fromPatchBody(body: PatchPromotionBody): Partial<PromotionInput> {
  const out: { -readonly [K in keyof PromotionInput]?: PromotionInput[K] } = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.status !== undefined) out.status = body.status;
  if (body.starts_at !== undefined) out.startsAt = body.starts_at === null ? null : timeField('starts_at', body.starts_at);
  if (body.ends_at !== undefined) out.endsAt = body.ends_at === null ? null : timeField('ends_at', body.ends_at);
  if (body.priority !== undefined) out.priority = body.priority;
  if (body.discount !== undefined) out.discount = discountFrom(body.discount);
  if (body.product_ids !== undefined) out.productIds = body.product_ids;
  if (body.category_ids !== undefined) out.categoryIds = body.category_ids;
  if (body.min_order_total !== undefined) {
    out.minOrderTotal = body.min_order_total === null ? null : amountOrZero('min_order_total', body.min_order_total);
  }
  if (body.streams !== undefined) out.streams = body.streams;
  if (body.payment_types !== undefined) out.paymentTypes = body.payment_types;
  if (body.by_promo_code !== undefined) out.byPromoCode = body.by_promo_code;
  if (body.bonus_reward_percent !== undefined) out.bonusRewardPercent = percentField('bonus_reward_percent', body.bonus_reward_percent);
  if (body.locations !== undefined) out.locations = body.locations;
  if (body.time_of_day !== undefined) out.timeOfDay = body.time_of_day;
  if (body.member_levels !== undefined) out.memberLevels = body.member_levels;
  if (body.first_order_only !== undefined) out.firstOrderOnly = body.first_order_only;
  if (body.special_prices !== undefined) {
    out.specialPrices = Object.fromEntries(
      Object.entries(body.special_prices).map(([id, price]) => [id, amountField(`special_prices.${id}`, price)]),
    );
  }
  return out;
}

/** A new promotion: the body's fields over the defaults of the ones it leaves out. */
export function fromCreateBody(body: CreatePromotionBody): PromotionInput {
  const given = fromPatchBody(body);
  return newPromotion({ ...given, name: body.name, status: body.status, discount: given.discount ?? discountFrom(body.discount) });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toPromotionBody(p: Promotion): PromotionBody {
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    starts_at: iso(p.startsAt),
    ends_at: iso(p.endsAt),
    priority: p.priority,
    discount: { type: p.discount.type, value: p.discount.type === 'percent' ? p.discount.value / 100 : toUnits(p.discount.value) },
    product_ids: [...p.productIds],
    category_ids: [...p.categoryIds],
    min_order_total: p.minOrderTotal === null ? null : toUnits(p.minOrderTotal),
    streams: [...p.streams],
    payment_types: [...p.paymentTypes],
    by_promo_code: p.byPromoCode,
    bonus_reward_percent: p.bonusRewardPercent / 100,
    locations: [...p.locations],
    time_of_day: p.timeOfDay,
    member_levels: [...p.memberLevels],
    first_order_only: p.firstOrderOnly,
    special_prices: Object.fromEntries(Object.entries(p.specialPrices).map(([id, price]) => [id, toUnits(price)])),
    created_at: new Date(p.createdAt).toISOString(),
    updated_at: new Date(p.updatedAt).toISOString(),
  };
}

/** A promotion id of the path: a positive decimal integer, else no promotion is found. */
export function promotionIdParam(text: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new AppError('NOT_FOUND', 'Promotion not found.');
  return Number(text);
}
