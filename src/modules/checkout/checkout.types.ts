import type { CheckoutOrderStatus } from '../../db/types.js';
import type { CartLine } from './domain/types.js';
import type { CheckoutHolds, CheckoutResult } from './domain/result.js';

/**
 * The checkout service's contract with its callers (the public edge, the admin API):
 * plain typed objects in minor units (money: kopecks; bonuses: hundredths of a bonus).
 */

/** The shop as the checkout needs it: its id and its time zone (time-of-day conditions). */
export interface CheckoutShop {
  readonly shopId: string;
  readonly timezone: string;
}

/** An estimate or apply request, validated and bounded by the edge. */
export interface CheckoutRequest {
  /** Required by apply, optional for estimate. */
  readonly orderId: string | null;
  /** The member's phone or loyalty_id; null: a guest. */
  readonly identifier: string | null;
  readonly paymentType: string | null;
  readonly stream: string | null;
  readonly locationId: string | null;
  readonly promoCodes: readonly string[];
  readonly certificates: readonly string[];
  readonly chargeBonuses: boolean;
  /** Hundredths of a bonus; null: as many as allowed. */
  readonly bonusesAmount: number | null;
  /** `HH:MM`, checked by the edge; null: now in the shop's time zone. */
  readonly currentTime: string | null;
  /** A paid subscription's code (contract-notes: a subscription order); null: none. Old stored requests lack it. */
  readonly subscription?: string | null;
  readonly cart: readonly CartLine[];
}

/** A request for the cart given, the other fields at what an edge leaves out: a guest's order, no codes, no bonuses. */
export function newCheckoutRequest(fields: Pick<CheckoutRequest, 'cart'> & Partial<CheckoutRequest>): CheckoutRequest {
  return {
    orderId: null,
    identifier: null,
    paymentType: null,
    stream: null,
    locationId: null,
    promoCodes: [],
    certificates: [],
    chargeBonuses: false,
    bonusesAmount: null,
    currentTime: null,
    ...fields,
  };
}

/** A stored order's calculation: the result and what it held. */
export interface StoredCalculation {
  readonly result: CheckoutResult;
  readonly holds: CheckoutHolds;
}

/** What estimate, apply and confirm answer. */
export type CheckoutAnswer =
  | {
      readonly ok: true;
      readonly orderId: string | null;
      /** The member's public identifier, else the identifier as sent, else ''. */
      readonly identifier: string;
      readonly paymentType: string;
      readonly result: CheckoutResult;
    }
  /** contract-notes "Loyalty checkout": the 200 answer for two lines of one product. */
  | { readonly ok: false; readonly duplicateProductId: string; readonly identifier: string };

/** A stored order (history, the admin API). */
export interface CheckoutOrder {
  readonly orderId: string;
  readonly status: CheckoutOrderStatus;
  readonly profileId: number | null;
  readonly identifier: string | null;
  readonly request: CheckoutRequest;
  readonly calculation: StoredCalculation;
  /** The paid subscription the order was computed with (its member was subscribed to it); null: none. */
  readonly subscription: string | null;
  readonly bonusHoldId: number | null;
  readonly rewardTransactionId: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly completedAt: number | null;
  readonly cancelledAt: number | null;
}

export const ORDER_NOT_FOUND = 'Order is not found';
export const COULD_NOT_APPLY = 'Could not apply order in its current status';
export const COULD_NOT_CONFIRM = 'Could not confirm order in its current status';
export const COULD_NOT_CANCEL = 'Could not cancel order in its current status';
