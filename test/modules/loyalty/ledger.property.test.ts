import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateSpend,
  balanceOf,
  compareSpendOrder,
  heldAmount,
  pendingOf,
  type Allocation,
  type LotState,
} from '../../../src/modules/loyalty/domain/ledger.js';

/**
 * A reference ledger in memory that moves amounts only as the service does: every debit,
 * spend and hold through allocateSpend, releases and refunds back to exactly the lots
 * they drew from, expiry as a write-off of what is left. Random sequences of operations
 * must keep the ledger's invariants after every step.
 */
interface ModelLot {
  id: number;
  amount: number;
  remaining: number;
  status: 'pending' | 'confirmed' | 'cancelled';
  expiresAt: number | null;
  createdAt: number;
  writtenOff: number;
  cancelled: number;
}
interface Draw {
  parts: readonly Allocation[];
  /** hold: active | released | captured; spend: spent | refunded. */
  state: 'active' | 'released' | 'captured' | 'spent' | 'refunded';
  kind: 'hold' | 'spend';
  amount: number;
}

type Op =
  | { op: 'credit'; amount: number; lifetime: number | null; pending: boolean }
  | { op: 'confirm'; index: number }
  | { op: 'cancel'; index: number }
  | { op: 'hold'; amount: number }
  | { op: 'release'; index: number }
  | { op: 'capture'; index: number }
  | { op: 'spend'; amount: number }
  | { op: 'refund'; index: number }
  | { op: 'advance'; by: number }
  | { op: 'expireJob' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('credit' as const),
    amount: fc.integer({ min: 1, max: 1000 }),
    lifetime: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
    pending: fc.boolean(),
  }),
  fc.record({ op: fc.constant('confirm' as const), index: fc.nat(30) }),
  fc.record({ op: fc.constant('cancel' as const), index: fc.nat(30) }),
  fc.record({ op: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 1500 }) }),
  fc.record({ op: fc.constant('release' as const), index: fc.nat(30) }),
  fc.record({ op: fc.constant('capture' as const), index: fc.nat(30) }),
  fc.record({ op: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 1500 }) }),
  fc.record({ op: fc.constant('refund' as const), index: fc.nat(30) }),
  fc.record({ op: fc.constant('advance' as const), by: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ op: fc.constant('expireJob' as const) }),
);

class ModelLedger {
  lots: ModelLot[] = [];
  draws: Draw[] = [];
  now = 0;

  apply(op: Op): void {
    switch (op.op) {
      case 'credit':
        this.lots.push({
          id: this.lots.length + 1,
          amount: op.amount,
          remaining: op.amount,
          status: op.pending ? 'pending' : 'confirmed',
          expiresAt: op.lifetime === null ? null : this.now + op.lifetime,
          createdAt: this.now,
          writtenOff: 0,
          cancelled: 0,
        });
        return;
      case 'confirm': {
        const lot = this.pick(this.lots, op.index);
        if (lot?.status === 'pending') lot.status = 'confirmed';
        return;
      }
      case 'cancel': {
        // A credit is taken back up to what is left of it.
        const lot = this.pick(this.lots, op.index);
        if (!lot || lot.status === 'cancelled') return;
        lot.cancelled += lot.remaining;
        lot.remaining = 0;
        lot.status = 'cancelled';
        return;
      }
      case 'hold':
      case 'spend':
        this.draw(op.op, op.amount);
        return;
      case 'release':
      case 'refund': {
        const d = this.pick(
          this.draws.filter((x) => x.state === (op.op === 'release' ? 'active' : 'spent')),
          op.index,
        );
        if (!d) return;
        d.state = op.op === 'release' ? 'released' : 'refunded';
        for (const p of d.parts) this.lot(p.lotId).remaining += p.amount;
        return;
      }
      case 'capture': {
        const d = this.pick(
          this.draws.filter((x) => x.state === 'active'),
          op.index,
        );
        if (d) d.state = 'captured';
        return;
      }
      case 'advance':
        // Time passes; expired lots keep their remaining until the job writes it off.
        this.now += op.by;
        return;
      case 'expireJob':
        this.expire();
        return;
    }
  }

  private draw(kind: 'hold' | 'spend', amount: number): void {
    const before = this.lots.map((l) => ({ ...l }));
    const balance = balanceOf(before, this.now);
    const result = allocateSpend(before, amount, this.now);
    if (!result.ok) {
      expect(amount).toBeGreaterThan(balance);
      expect(result.available).toBe(balance);
      return;
    }
    expect(amount).toBeLessThanOrEqual(balance);
    expectSpendOrder(before, result.parts, amount, this.now);
    for (const p of result.parts) this.lot(p.lotId).remaining -= p.amount;
    this.draws.push({ parts: result.parts, state: kind === 'hold' ? 'active' : 'spent', kind, amount });
  }

  /** The expiry job: what is left of a lot past its expires_at is written off. */
  private expire(): void {
    for (const lot of this.lots) {
      if (lot.status === 'confirmed' && lot.expiresAt !== null && lot.expiresAt <= this.now && lot.remaining > 0) {
        lot.writtenOff += lot.remaining;
        lot.remaining = 0;
      }
    }
  }

  private lot(id: number): ModelLot {
    const lot = this.lots.find((l) => l.id === id);
    if (!lot) throw new Error(`no lot ${id}`);
    return lot;
  }

  private pick<T>(items: readonly T[], index: number): T | undefined {
    return items.length === 0 ? undefined : items[index % items.length];
  }

  checkInvariants(): void {
    const activeHolds = this.draws.filter((d) => d.state === 'active');
    const holds = this.draws
      .filter((d) => d.kind === 'hold')
      .map((d) => ({
        amount: d.amount,
        status: d.state === 'active' ? ('active' as const) : d.state === 'captured' ? ('captured' as const) : ('released' as const),
      }));
    const balance = balanceOf(this.lots, this.now);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(pendingOf(this.lots)).toBeGreaterThanOrEqual(0);
    // The balance, counted independently: confirmed, unexpired lots' remaining. Holds
    // took their amounts out of the lots they reserve, so this is the lots' remaining
    // before holds minus the active holds.
    const live = this.lots.filter((l) => l.status === 'confirmed' && (l.expiresAt === null || l.expiresAt > this.now));
    expect(balance).toBe(live.reduce((s, l) => s + l.remaining, 0));
    expect(heldAmount(holds)).toBe(activeHolds.reduce((s, d) => s + d.amount, 0));
    // Every draw's parts add up to its amount; nothing is created or lost in any lot.
    for (const d of this.draws) expect(d.parts.reduce((s, p) => s + p.amount, 0)).toBe(d.amount);
    for (const lot of this.lots) {
      expect(lot.remaining).toBeGreaterThanOrEqual(0);
      const drawn = this.draws
        .filter((d) => d.state === 'active' || d.state === 'captured' || d.state === 'spent')
        .flatMap((d) => d.parts)
        .reduce((s, p) => (p.lotId === lot.id ? s + p.amount : s), 0);
      expect(lot.remaining + drawn + lot.writtenOff + lot.cancelled).toBe(lot.amount);
    }
  }
}

/** Spend order written out independently of compareSpendOrder: expiry (none = last), age, id. */
function spendKey(lot: LotState): [number, number, number] {
  return [lot.expiresAt ?? Number.POSITIVE_INFINITY, lot.createdAt, lot.id];
}
function keyBefore(a: LotState, b: LotState): boolean {
  const [x, y] = [spendKey(a), spendKey(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number);
  return false;
}

/**
 * The parts drain spendable lots in spend order: every part's lot is spendable and
 * comes before the next part's; each lot but the last is emptied; and no spendable lot
 * that was left alone comes before the last lot drawn from.
 */
function expectSpendOrder(lots: readonly LotState[], parts: readonly Allocation[], amount: number, now: number): void {
  const byId = new Map(lots.map((l) => [l.id, l]));
  const used = parts.map((p) => byId.get(p.lotId) as LotState);
  for (const lot of used) {
    expect(lot.status).toBe('confirmed');
    expect(lot.expiresAt === null || lot.expiresAt > now).toBe(true);
  }
  for (let i = 1; i < used.length; i += 1) expect(keyBefore(used[i - 1] as LotState, used[i] as LotState)).toBe(true);
  parts.forEach((p, i) => {
    expect(p.amount).toBeGreaterThan(0);
    if (i < parts.length - 1) expect(p.amount).toBe((used[i] as LotState).remaining);
  });
  expect(parts.reduce((s, p) => s + p.amount, 0)).toBe(amount);
  const last = used[used.length - 1] as LotState;
  const skipped = lots.filter(
    (l) => l.status === 'confirmed' && l.remaining > 0 && (l.expiresAt === null || l.expiresAt > now) && !used.includes(l),
  );
  for (const lot of skipped) expect(keyBefore(lot, last)).toBe(false);
}

describe('the ledger rules under random sequences', () => {
  it('keeps balance = lots remaining − active holds, nothing negative, spends in expiry order', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const ledger = new ModelLedger();
        for (const op of ops) {
          ledger.apply(op);
          ledger.checkInvariants();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('orders lots by expiry, never-expiring last, then by age and id', () => {
    const lot = (id: number, expiresAt: number | null, createdAt: number): LotState => ({
      id,
      remaining: 1,
      status: 'confirmed',
      expiresAt,
      createdAt,
    });
    const sorted = [lot(1, null, 0), lot(2, 50, 5), lot(3, 10, 9), lot(4, 50, 1), lot(5, null, -1), lot(6, 50, 1)].sort(compareSpendOrder);
    expect(sorted.map((l) => l.id)).toEqual([3, 4, 6, 2, 5, 1]);
  });

  it('counts neither pending, cancelled nor expired lots in the balance', () => {
    const lots: LotState[] = [
      { id: 1, remaining: 100, status: 'pending', expiresAt: null, createdAt: 0 },
      { id: 2, remaining: 200, status: 'cancelled', expiresAt: null, createdAt: 0 },
      { id: 3, remaining: 300, status: 'confirmed', expiresAt: 10, createdAt: 0 },
      { id: 4, remaining: 400, status: 'confirmed', expiresAt: 11, createdAt: 0 },
    ];
    expect(balanceOf(lots, 10)).toBe(400);
    expect(pendingOf(lots)).toBe(100);
    expect(allocateSpend(lots, 401, 10)).toEqual({ ok: false, available: 400 });
    expect(allocateSpend(lots, 0, 10).ok).toBe(false);
  });
});
