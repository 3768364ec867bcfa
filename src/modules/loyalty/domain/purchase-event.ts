import { orderTotals, toMinorUnits } from '../../tracking/index.js';
import type { StoredEvent } from '../../tracking/index.js';

/**
 * What a tracked `purchase` event tells the levels (docs/loyalty.md "Levels"): its order
 * id, its amount in minor units and its instant. Pure.
 */
export interface TrackedPurchase {
  readonly orderId: string;
  /** Minor units, > 0. */
  readonly amount: number;
  readonly at: number;
}

/**
 * A purchase event with an `order_id` and a positive amount: the order's `order_price`
 * when given, else the total of its items (price × amount, as tracking keeps an order's
 * items_total). An event without an order id counts nothing: the order id is what keeps
 * an order from counting twice. A zero total is not a purchase.
 */
export function purchaseFromEvent(event: StoredEvent): TrackedPurchase | undefined {
  if (event.custom || event.event !== 'purchase') return undefined;
  const orderId = event.params.order_id;
  if (typeof orderId !== 'string' || orderId === '') return undefined;
  const price = event.params.order_price;
  let amount = typeof price === 'number' ? toMinorUnits(price) : undefined;
  if (amount === undefined || amount === 0) {
    const totals = orderTotals(event.items, undefined);
    amount = totals.ok ? totals.itemsTotal : undefined;
  }
  if (amount === undefined || amount <= 0) return undefined;
  return { orderId, amount, at: event.time };
}
