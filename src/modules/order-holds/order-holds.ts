import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * What an order holds while it waits for its confirm or cancel, as a two-phase transfer
 * does: apply places a pending hold, confirm posts it (capture), cancel voids it (release)
 * or gives back what was posted. The checkout owns the order and its transactions; each
 * module that holds a limit of its own for an order (a promo code's uses, a certificate's
 * balance, the member's bonuses, a subscription benefit's usage) implements
 * OrderHoldParticipant in its own folder, and the composition root hands the checkout
 * one ordered list of them. This file is the contract between the two sides and imports
 * neither, so that the participants never import the checkout that calls them.
 */

/** What every step of a participant is given: the order's open transaction, the order and its buyer. */
export interface OrderHoldScope {
  readonly trx: Transaction<Database>;
  readonly shopId: string;
  readonly orderId: string;
  /** The buyer, null for a guest. */
  readonly profileId: number | null;
  /** The clock's now for this step (the same for every participant of it). */
  readonly now: number;
}

/** An apply's scope. */
export interface OrderPlaceScope extends OrderHoldScope {
  /** The shop's time zone (a participant's periods may be days of it). */
  readonly timezone: string;
  /** The order's row was inserted by this apply: the order holds nothing yet, there is nothing of it to release. */
  readonly fresh: boolean;
}

/**
 * Where a participant's rows come in the one order in which apply, confirm and cancel lock
 * rows, so that two orders never wait on each other in opposite orders (PostgreSQL): before
 * the loyalty member's row, that row itself, or after it. The checkout's own steps of an
 * order lock the member too (the reward, the purchase): they run after the participants up
 * to the member and before those after it.
 */
export type HoldLockPlace = 'before member' | 'member' | 'after member';

/**
 * What `place` answers. Not ok: refused, and the whole apply rolls back. `note`: what the
 * order must know of the holds — kept on its row, or seen by the next round of a refused
 * apply.
 */
export interface HoldPlacement<Note> {
  readonly ok: boolean;
  readonly note?: Note;
}

/**
 * One kind of hold an order may place. `Order` is what the participant reads of the order
 * (the calling side passes more); `Note` what its placement tells the order.
 *
 * The checkout runs each operation of an order as ONE transaction with one fsync after it
 * (docs/checkout.md "Orders"): apply places every hold and writes the order row, confirm
 * moves the order to completed and captures, cancel moves it to cancelled and releases or
 * gives back. A participant joins that transaction, so its holds commit or roll back with
 * the order's. The rules a participant keeps:
 *
 * - It reads and writes through `scope.trx` only. On SQLite the transaction holds the
 *   process's one connection: a query on the database handle would wait for it forever.
 * - Its limits hold by a conditional UPDATE or a unique constraint in `trx`, never by a
 *   read before the write (the read may be stale by the time the write runs).
 * - Each step is idempotent: capture and release find what is still held (or captured)
 *   and move it once; a repeat apply replaces the order's holds, it does not add to them.
 * - It locks its rows where `locks` says, in a fixed order of its own among them.
 * - It never throws for an expected refusal: `place` answers not ok, the whole apply is
 *   rolled back and computed again on fresh reads (up to four rounds, then 409).
 */
export interface OrderHoldParticipant<Order, Note = never> {
  /** For logs and errors: which participant refused or failed. */
  readonly name: string;
  readonly locks: HoldLockPlace;
  /** Apply, first or repeat: the order's holds of this participant become what `order` asks. */
  place(scope: OrderPlaceScope, order: Order): Promise<HoldPlacement<Note>>;
  /** Confirm (created → completed): what the order holds is spent for good, once. */
  capture(scope: OrderHoldScope, order: Order): Promise<unknown>;
  /** Cancel (from created or completed): what is still held is released, what was captured given back, once. */
  release(scope: OrderHoldScope, order: Order): Promise<unknown>;
  /**
   * Before a confirm, outside any transaction: whether the order still holds what `order`
   * asks (an order stored before apply became one transaction may have lost its holds).
   * A participant without it is not asked.
   */
  intact?(shopId: string, orderId: string, order: Order): Promise<boolean>;
}
