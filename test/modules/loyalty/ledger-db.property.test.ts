import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { AppError } from '../../../src/errors.js';
import { IdentityService } from '../../../src/modules/identity/identity.service.js';
import { LoyaltyLedger } from '../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyService } from '../../../src/modules/loyalty/loyalty.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { settleBonusHold } from '../../helpers/order-holds.js';
import { createShopFixture } from '../../helpers/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

type Op =
  | { op: 'credit'; amount: number; lifetimeHours: number | null }
  | { op: 'reward'; amount: number; lifetimeHours: number | null; pending: boolean }
  | { op: 'confirm'; index: number }
  | { op: 'cancel'; index: number }
  | { op: 'refund'; index: number }
  | { op: 'expire' }
  | { op: 'debit'; amount: number }
  | { op: 'hold'; amount: number }
  | { op: 'release'; index: number }
  | { op: 'capture'; index: number }
  | { op: 'advance'; hours: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('credit' as const),
    amount: fc.integer({ min: 1, max: 500 }),
    lifetimeHours: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  }),
  fc.record({
    op: fc.constant('reward' as const),
    amount: fc.integer({ min: 1, max: 500 }),
    lifetimeHours: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
    pending: fc.boolean(),
  }),
  fc.record({ op: fc.constant('confirm' as const), index: fc.nat(20) }),
  fc.record({ op: fc.constant('cancel' as const), index: fc.nat(20) }),
  { arbitrary: fc.record({ op: fc.constant('refund' as const), index: fc.nat(20) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('expire' as const) }), weight: 2 },
  fc.record({ op: fc.constant('debit' as const), amount: fc.integer({ min: 1, max: 700 }) }),
  fc.record({ op: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 700 }) }),
  fc.record({ op: fc.constant('release' as const), index: fc.nat(20) }),
  { arbitrary: fc.record({ op: fc.constant('capture' as const), index: fc.nat(20) }), weight: 2 },
  // Time moves often and far enough for lots to expire under holds and between spends.
  { arbitrary: fc.record({ op: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 20 }) }), weight: 3 },
);

/**
 * The real service and database under random sequences: after every step the rows
 * themselves must show that no lot went below zero or lost an amount, that the balance
 * the service answers is the confirmed unexpired lots' remaining, that a debit or hold
 * was refused exactly when it exceeded the balance, and that it drew oldest expiry first.
 */
describe.each(TEST_DIALECTS)('the ledger on %s under random sequences', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let loyalty: LoyaltyService;
  let ledger: LoyaltyLedger;
  let shopId: string;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    const shops = new ShopsService({ db, clock });
    ledger = new LoyaltyLedger({ db, clock });
    loyalty = new LoyaltyService({ db, clock, shops, identity: new IdentityService({ db, clock }), ledger });
    shopId = (await createShopFixture({ shops })).shopId;
  });
  afterAll(async () => {
    await db.cleanup();
  });

  async function rows(profileId: number) {
    const lots = await db.db
      .selectFrom('loyalty_lots')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', profileId)
      .execute();
    const txs = await db.db
      .selectFrom('loyalty_transactions')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', profileId)
      .execute();
    const ids = txs.map((t) => Number(t.id));
    const allocations =
      ids.length === 0
        ? []
        : await db.db
            .selectFrom('loyalty_allocations')
            .selectAll()
            .where('shop_id', '=', shopId)
            .where('transaction_id', 'in', ids)
            .execute();
    return { lots, txs, allocations };
  }

  async function checkInvariants(profileId: number, identifier: string): Promise<void> {
    const { lots, txs, allocations } = await rows(profileId);
    const live = new Set(txs.filter((t) => t.entry !== 'credit' && t.status !== 'cancelled').map((t) => Number(t.id)));
    for (const lot of lots) {
      expect(Number(lot.remaining)).toBeGreaterThanOrEqual(0);
      const drawn = allocations
        .filter((a) => Number(a.lot_id) === Number(lot.id) && live.has(Number(a.transaction_id)))
        .reduce((s, a) => s + Number(a.amount), 0);
      expect(Number(lot.remaining) + drawn).toBe(Number(lot.amount));
    }
    for (const t of txs.filter((x) => x.entry === 'debit' || x.entry === 'hold')) {
      const parts = allocations.filter((a) => Number(a.transaction_id) === Number(t.id));
      expect(parts.reduce((s, a) => s + Number(a.amount), 0)).toBe(-Number(t.amount));
    }
    const now = clock.now();
    const expected = lots
      .filter((l) => l.status === 'confirmed' && (l.expires_at === null || Number(l.expires_at) > now))
      .reduce((s, l) => s + Number(l.remaining), 0);
    const view = await loyalty.viewMember(shopId, identifier);
    expect(view.balance).toBe(expected);
    expect(view.balance).toBeGreaterThanOrEqual(0);
    expect(view.pending).toBe(lots.filter((l) => l.status === 'pending').reduce((s, l) => s + Number(l.remaining), 0));
  }

  /** The lots a draw took from, in expiry order (none last), each but the last emptied by it. */
  async function expectDrawOrder(profileId: number, transactionId: number, before: Map<number, number>): Promise<void> {
    const { lots, allocations } = await rows(profileId);
    const parts = allocations.filter((a) => Number(a.transaction_id) === transactionId);
    const key = (id: number) => {
      const lot = lots.find((l) => Number(l.id) === id);
      return lot?.expires_at === null || lot?.expires_at === undefined ? Number.POSITIVE_INFINITY : Number(lot.expires_at);
    };
    const used = parts.map((p) => Number(p.lot_id)).sort((a, b) => key(a) - key(b) || a - b);
    used.slice(0, -1).forEach((id) => {
      const part = parts.find((p) => Number(p.lot_id) === id);
      expect(Number(part?.amount)).toBe(before.get(id));
    });
    const lastKey = key(used[used.length - 1] as number);
    const now = clock.now();
    for (const lot of lots) {
      const id = Number(lot.id);
      const wasSpendable =
        (before.get(id) ?? 0) > 0 && lot.status === 'confirmed' && (lot.expires_at === null || Number(lot.expires_at) > now);
      if (wasSpendable && !used.includes(id)) expect(key(id)).toBeGreaterThanOrEqual(lastKey);
    }
  }

  it('keeps every lot whole and the balance derived, and refuses exactly what exceeds it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), async (ops) => {
        clock.set(NOW);
        seq += 1;
        const member = await loyalty.joinMember(shopId, { loyaltyId: `prop-${seq}` });
        const holds: number[] = [];
        const credits: number[] = [];
        const draws: number[] = [];
        for (const op of ops) {
          if (op.op === 'advance') clock.advance(op.hours * HOUR);
          else if (op.op === 'credit') {
            const expiresAt = op.lifetimeHours === null ? undefined : clock.now() + op.lifetimeHours * HOUR;
            credits.push((await loyalty.creditManual(shopId, member.identifier, { amount: op.amount, expiresAt })).transactionId);
          } else if (op.op === 'reward') {
            const expiresAt = op.lifetimeHours === null ? null : clock.now() + op.lifetimeHours * HOUR;
            const status = op.pending ? ('pending' as const) : ('confirmed' as const);
            const posted = await ledger.write(shopId, member.profileId, (w) =>
              w.credit({
                amount: op.amount,
                status,
                kind: 'event_reward',
                reason: null,
                orderId: null,
                expiresAt,
                confirmsAt: op.pending ? clock.now() + HOUR : null,
              }),
            );
            credits.push(posted.transactionId);
          } else if (op.op === 'confirm' || op.op === 'cancel') {
            if (credits.length === 0) continue;
            const id = credits[op.index % credits.length] as number;
            const lot = (await rows(member.profileId)).lots.find((l) => Number(l.id) === id);
            let outcome: unknown;
            await ledger.write(shopId, member.profileId, async (w) => {
              outcome = op.op === 'confirm' ? await w.confirmLot(id) : await w.cancelCredit(id, 'test');
              return id;
            });
            if (op.op === 'confirm') expect(outcome).toBe(lot?.status === 'pending');
            else if (lot?.status === 'cancelled') expect(outcome).toEqual({ ok: false, why: 'already_cancelled' });
            else expect(outcome).toMatchObject({ ok: true, taken: Number(lot?.remaining) });
          } else if (op.op === 'refund') {
            if (draws.length === 0) continue;
            const id = draws[op.index % draws.length] as number;
            const tx = (await rows(member.profileId)).txs.find((t) => Number(t.id) === id);
            const captured = holds.includes(id)
              ? (
                  await db.db
                    .selectFrom('loyalty_holds')
                    .select('status')
                    .where('shop_id', '=', shopId)
                    .where('id', '=', id)
                    .executeTakeFirst()
                )?.status === 'captured'
              : true;
            let outcome: unknown;
            await ledger.write(shopId, member.profileId, async (w) => {
              outcome = await w.refund(id, 'test');
              return id;
            });
            if (tx?.status === 'cancelled') expect(outcome).toMatchObject({ ok: false });
            else if (!captured) expect(outcome).toEqual({ ok: false, why: 'not_refundable' });
            else expect(outcome).toMatchObject({ ok: true, refunded: -Number(tx?.amount) });
          } else if (op.op === 'expire') {
            const due = (await rows(member.profileId)).lots.filter(
              (l) => l.expires_at !== null && Number(l.expires_at) <= clock.now() && Number(l.remaining) > 0 && l.status !== 'cancelled',
            );
            for (const lot of due) {
              let written = -1;
              await ledger.write(shopId, member.profileId, async (w) => {
                written = await w.expireLot(Number(lot.id));
                return Number(lot.id);
              });
              expect(written).toBe(Number(lot.remaining));
            }
            for (const lot of (await rows(member.profileId)).lots) {
              if (lot.expires_at !== null && Number(lot.expires_at) <= clock.now() && lot.status !== 'cancelled')
                expect(Number(lot.remaining)).toBe(0);
            }
          } else if (op.op === 'debit' || op.op === 'hold') {
            const balance = (await loyalty.viewMember(shopId, member.identifier)).balance;
            const before = new Map((await rows(member.profileId)).lots.map((l) => [Number(l.id), Number(l.remaining)]));
            const attempt =
              op.op === 'debit'
                ? loyalty.debitManual(shopId, member.identifier, { amount: op.amount, reason: 'test' })
                : ledger.write(shopId, member.profileId, (w) => w.hold(`order-${seq}-${holds.length}`, op.amount));
            const outcome = await attempt.then(
              (posted) => posted,
              (error: unknown) => error,
            );
            if (op.amount > balance) {
              expect(outcome).toBeInstanceOf(AppError);
              expect((outcome as AppError).code).toBe('CONFLICT');
            } else {
              expect(outcome).not.toBeInstanceOf(Error);
              const posted = outcome as { transactionId: number; balance: number };
              expect(posted.balance).toBe(balance - op.amount);
              await expectDrawOrder(member.profileId, posted.transactionId, before);
              if (op.op === 'hold') holds.push(posted.transactionId);
              draws.push(posted.transactionId);
            }
          } else if (holds.length > 0) {
            const id = holds[op.index % holds.length] as number;
            if (op.op === 'release') await settleBonusHold(db, ledger, shopId, id, 'released');
            else await settleBonusHold(db, ledger, shopId, id, 'captured');
          }
          await checkInvariants(member.profileId, member.identifier);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
