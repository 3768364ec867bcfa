import type { OrderHoldParticipant } from '../order-holds/index.js';
import type { BlockRefusal } from '../promotions/index.js';
import type { CheckoutHolds } from './domain/result.js';

/** An order as its hold participants see it. */
export interface CheckoutHeldOrder {
  /** What the calculation holds: at an apply the new calculation's, at a confirm or cancel the stored one's. */
  readonly holds: CheckoutHolds;
  /** The paid subscription the order is computed with (its row's `subscription`). */
  readonly subscription: string | null;
  /** The ledger hold of the order's bonuses on its row; at an apply, the one it held before. */
  readonly bonusHoldId: number | null;
}

/** What a placement tells the order: its new bonus hold (kept on its row); the codes a block refused (the next round sees them refused). */
export interface CheckoutHoldNote {
  readonly bonusHoldId?: number | null;
  readonly refusedCodes?: ReadonlyMap<string, BlockRefusal>;
}

/**
 * A hold an order places at apply, captures at confirm and releases at cancel
 * (order-holds/order-holds.ts): the composition root hands the checkout one list of them,
 * in the order in which they lock their rows (docs/checkout.md "Orders").
 */
export type CheckoutHoldParticipant = OrderHoldParticipant<CheckoutHeldOrder, CheckoutHoldNote>;
