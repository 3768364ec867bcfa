import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { OrderHoldScope } from '../order-holds/index.js';
import { moveHeldRows, type HeldRow, type HeldRowStatus, type HeldRowTable } from './held-rows.repo.js';

/**
 * The hold logic promo codes and certificates share. What an order holds of them is one
 * row per order and code (a use of a code, an amount of a certificate) whose life is a
 * two-phase transfer's: held, then captured (posted, at confirm) or released (voided, by a
 * repeat apply that drops the code or by a cancel); a captured row is given back by the
 * cancel of a completed order. Each step moves the row's status by one conditional UPDATE,
 * and only the rows it moved touch their code's counters, so it happens once however often
 * or concurrently it is asked.
 */
export type HoldStep = 'release' | 'capture' | 'give back';

/** How one kind of held row takes its steps. */
export interface HeldRows<T extends HeldRowTable> {
  readonly table: T;
  /** Each step's move of the row's status: from, to. */
  readonly steps: { readonly [S in HoldStep]: readonly [HeldRowStatus<T>, HeldRowStatus<T>] };
  /** The order in which a step of several rows moves their counters, so that two never deadlock. */
  readonly lockOrder: (a: HeldRow<T>, b: HeldRow<T>) => number;
  /** Moves the counters of the row's code (or certificate) by the step the row took. */
  count(trx: Transaction<Database>, shopId: string, row: HeldRow<T>, step: HoldStep, now: number): Promise<void>;
}

/** The order's rows (all, or those of one stored code) take `step`, each once. Answers how many moved. */
export async function settleHeldRows<T extends HeldRowTable>(
  kind: HeldRows<T>,
  scope: OrderHoldScope,
  step: HoldStep,
  code?: string,
): Promise<number> {
  const [from, to] = kind.steps[step];
  const moved = await moveHeldRows(scope.trx, kind.table, scope.shopId, scope.orderId, from, to, scope.now, code);
  moved.sort(kind.lockOrder);
  for (const row of moved) await kind.count(scope.trx, scope.shopId, row, step, scope.now);
  return moved.length;
}

/**
 * The codes an apply visits, what the order holds and what it wants, each once and in one
 * order (sorted), so that two applies never lock two codes in opposite orders.
 */
export function inLockOrder(held: Iterable<string>, wanted: Iterable<string>): string[] {
  return [...new Set([...held, ...wanted])].sort();
}
