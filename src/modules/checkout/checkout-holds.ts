import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { CheckoutRequest, StoredCalculation } from './checkout.types.js';

/** What every step of a hold participant is given: the checkout's open transaction and the order. */
export interface CheckoutHoldScope {
  readonly trx: Transaction<Database>;
  readonly shopId: string;
  readonly orderId: string;
  /** The buyer, null for a guest. */
  readonly profileId: number | null;
  /** The clock's now for this step (the same for every participant of it). */
  readonly now: number;
}

/** An apply's scope: also the request and the calculation the order is about to store. */
export interface CheckoutApplyScope extends CheckoutHoldScope {
  /** The shop's time zone (a participant's periods may be days of it). */
  readonly timezone: string;
  /** The order's row was inserted by this apply: the order holds nothing yet, there is nothing of it to release. */
  readonly fresh: boolean;
  readonly request: CheckoutRequest;
  readonly calculation: StoredCalculation;
}

/**
 * Something an order holds besides the checkout's own holds (bonuses, promo-code uses,
 * certificate amounts), placed, captured and released together with them: a module that
 * needs its own limit held for an order (the benefit usage of a paid subscription, for
 * one) implements this and registers it with `CheckoutService.addHoldParticipant`.
 *
 * The checkout runs each operation of an order as ONE transaction with one fsync after
 * it (docs/checkout.md "Orders"): apply places every hold and writes the order row,
 * confirm moves the order to completed and captures, cancel moves it to cancelled and
 * releases or gives back. A participant joins that transaction, so its holds commit or
 * roll back with the order's. The rules a participant keeps:
 *
 * - It reads and writes through `scope.trx` only. On SQLite the transaction holds the
 *   process's one connection: a query on the database handle would wait for it forever.
 * - Its limits hold by a conditional UPDATE or a unique constraint in `trx`, never by a
 *   read before the write (the read may be stale by the time the write runs).
 * - Each step is idempotent: capture and release find what is still held (or captured)
 *   and move it once; a repeat apply replaces the order's holds, it does not add to them.
 * - It locks its rows after the checkout's own (the order row, promo codes, certificates,
 *   the member), in a fixed order of its own, so two orders never deadlock (PostgreSQL).
 * - It never throws for an expected refusal: `place` answers false, the whole apply is
 *   rolled back and computed again on fresh reads (up to four rounds, then 409).
 */
export interface CheckoutHoldParticipant {
  /** For logs and errors: which participant refused or failed. */
  readonly name: string;
  /** Apply, first or repeat: the order's holds of this participant become what the calculation asks. False: refused. */
  place(scope: CheckoutApplyScope): Promise<boolean>;
  /** Confirm (created → completed): what the order holds is spent for good, once. */
  capture(scope: CheckoutHoldScope): Promise<void>;
  /** Cancel (from created or completed): what is still held is released, what was captured given back, once. */
  release(scope: CheckoutHoldScope): Promise<void>;
}
