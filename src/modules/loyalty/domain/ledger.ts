/**
 * The ledger's rules, pure (docs/loyalty.md): which lots count, what the balance is,
 * and which lots a spend draws from. No I/O, no clock: `now` is an argument.
 */

export interface LotState {
  readonly id: number;
  readonly remaining: number;
  readonly status: 'pending' | 'confirmed' | 'cancelled';
  /** Milliseconds since the epoch; null never expires. */
  readonly expiresAt: number | null;
  readonly createdAt: number;
}

export interface HoldState {
  readonly amount: number;
  readonly status: 'active' | 'released' | 'captured';
}

export interface Allocation {
  readonly lotId: number;
  readonly amount: number;
}

export type AllocationResult =
  | { readonly ok: true; readonly parts: readonly Allocation[] }
  | { readonly ok: false; readonly available: number };

/** A lot pays only while confirmed, not yet expired and not used up. */
export function isSpendable(lot: LotState, now: number): boolean {
  return lot.status === 'confirmed' && lot.remaining > 0 && (lot.expiresAt === null || lot.expiresAt > now);
}

/**
 * The order in which spends draw: the lot expiring first goes first, lots that never
 * expire last; among equals the older credit first, then the lower id (a total order,
 * so that two readers of the same lots agree).
 */
export function compareSpendOrder(a: LotState, b: LotState): number {
  if (a.expiresAt !== b.expiresAt) {
    if (a.expiresAt === null) return 1;
    if (b.expiresAt === null) return -1;
    return a.expiresAt - b.expiresAt;
  }
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id - b.id;
}

/** Bonuses blocked by holds that are neither released nor captured. */
export function heldAmount(holds: readonly HoldState[]): number {
  return holds.reduce((sum, h) => (h.status === 'active' ? sum + h.amount : sum), 0);
}

/**
 * The balance: the remaining of confirmed, unexpired lots. A hold takes its amount out of
 * the lots it reserves when it is placed (recorded as allocations, like a spend), so
 * `remaining` is already net of active holds: this is "confirmed lots' remaining minus
 * active holds" with the hold tied to its lots, never a stored number.
 */
export function balanceOf(lots: readonly LotState[], now: number): number {
  return lots.reduce((sum, lot) => (isSpendable(lot, now) ? sum + lot.remaining : sum), 0);
}

/** Bonuses on their way: pending credits, which count toward nothing until confirmed. */
export function pendingOf(lots: readonly LotState[]): number {
  return lots.reduce((sum, lot) => (lot.status === 'pending' ? sum + lot.remaining : sum), 0);
}

/**
 * Draws `amount` (minor units) from the spendable lots in spend order: for a debit, a
 * spend or a hold alike. Refused, with what is available, when the lots do not cover it.
 */
export function allocateSpend(lots: readonly LotState[], amount: number, now: number): AllocationResult {
  const ordered = lots.filter((lot) => isSpendable(lot, now)).sort(compareSpendOrder);
  const available = ordered.reduce((sum, lot) => sum + lot.remaining, 0);
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > available) return { ok: false, available };
  const parts: Allocation[] = [];
  let left = amount;
  for (const lot of ordered) {
    if (left === 0) break;
    const take = Math.min(lot.remaining, left);
    parts.push({ lotId: lot.id, amount: take });
    left -= take;
  }
  return { ok: true, parts };
}
