/**
 * Order totals in integer minor units (kopecks: two decimal places). Each price is
 * rounded to kopecks once, from its decimal spelling, so that 1.005 is 101 kopecks
 * (1.005 × 100 is 100.49999… in binary floating point); after that everything is exact
 * integer arithmetic. Pure.
 */
import type { TrackedItem } from './items.js';

/** A non-negative amount of currency units in minor units, half up; undefined past 2^53. */
export function toMinorUnits(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  // Shift the decimal point in the number's shortest decimal spelling rather than
  // multiplying in binary; "1e-7" and "1e+21" keep their exponent.
  const [mantissa = '0', exponent = '0'] = String(value).split('e');
  const minor = Math.round(Number(`${mantissa}e${Number(exponent) + 2}`));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

export type OrderTotals =
  | { readonly ok: true; readonly itemsTotal: number; readonly orderPrice: number | null }
  /** A price or order_price too large to count exactly. */
  | { readonly ok: false; readonly field: 'price' | 'order_price' };

/** items_total = Σ price × amount over the items with a price; order_price as sent, in minor units. */
export function orderTotals(items: readonly TrackedItem[], orderPrice: number | undefined): OrderTotals {
  let itemsTotal = 0;
  for (const item of items) {
    if (item.price === undefined) continue;
    const price = toMinorUnits(item.price);
    if (price === undefined) return { ok: false, field: 'price' };
    itemsTotal += price * item.amount;
    if (!Number.isSafeInteger(itemsTotal)) return { ok: false, field: 'price' };
  }
  if (orderPrice === undefined) return { ok: true, itemsTotal, orderPrice: null };
  const price = toMinorUnits(orderPrice);
  if (price === undefined) return { ok: false, field: 'order_price' };
  return { ok: true, itemsTotal, orderPrice: price };
}

/** The parts of an order trackPurchase names, under their contract names. */
export const ORDER_PART_FIELDS = ['order_cash', 'order_bonuses', 'order_delivery', 'order_discount'] as const;
export type OrderPartField = (typeof ORDER_PART_FIELDS)[number];

export type OrderParts =
  | { readonly ok: true; readonly parts: Readonly<Record<OrderPartField, number | null>> }
  /** An amount too large to count exactly. */
  | { readonly ok: false; readonly field: OrderPartField };

/** Each given amount (currency units, not negative) in minor units, half up; null when not given. */
export function orderParts(amounts: Readonly<Partial<Record<OrderPartField, number>>>): OrderParts {
  const parts: Record<OrderPartField, number | null> = {
    order_cash: null,
    order_bonuses: null,
    order_delivery: null,
    order_discount: null,
  };
  for (const field of ORDER_PART_FIELDS) {
    const amount = amounts[field];
    if (amount === undefined) continue;
    const minor = toMinorUnits(amount);
    if (minor === undefined) return { ok: false, field };
    parts[field] = minor;
  }
  return { ok: true, parts };
}
