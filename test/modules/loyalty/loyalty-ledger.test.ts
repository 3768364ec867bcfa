import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { IdentityService } from '../../../src/modules/identity/identity.service.js';
import { LoyaltyLedger, type LedgerWrite } from '../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyService } from '../../../src/modules/loyalty/loyalty.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { settleBonusHold } from '../../helpers/order-holds.js';
import { createShopFixture } from '../../helpers/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

/** The ledger's write primitives one by one: cancel, refund, confirm and expiry (docs/loyalty.md). */
describe.each(TEST_DIALECTS)('the loyalty ledger on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  let ledger: LoyaltyLedger;
  let loyalty: LoyaltyService;
  let shopId: string;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
    ledger = new LoyaltyLedger({ db, clock });
    loyalty = new LoyaltyService({ db, clock, shops, identity: new IdentityService({ db, clock }), ledger });
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock.set(NOW);
    shopId = (await createShopFixture({ shops })).shopId;
  });

  async function newMember() {
    seq += 1;
    return loyalty.joinMember(shopId, { loyaltyId: `ledger-${seq}` });
  }

  /** Runs one step inside a ledger write and answers what the step answered. */
  async function inWrite<T>(profileId: number, step: (w: LedgerWrite) => Promise<T>): Promise<T> {
    let out: T | undefined;
    await ledger.write(shopId, profileId, async (w) => {
      out = await step(w);
      return 0;
    });
    return out as T;
  }

  function reward(amount: number, extra: { status?: 'pending' | 'confirmed'; expiresAt?: number | null } = {}) {
    return {
      amount,
      status: extra.status ?? ('confirmed' as const),
      kind: 'event_reward' as const,
      reason: null,
      orderId: null,
      expiresAt: extra.expiresAt ?? null,
      confirmsAt: extra.status === 'pending' ? NOW + DAY : null,
    };
  }

  it('cancels a partly spent reward for what is left: the spent part stays spent', async () => {
    const m = await newMember();
    const id = (await ledger.write(shopId, m.profileId, (w) => w.credit(reward(1000)))).transactionId;
    await loyalty.debitManual(shopId, m.identifier, { amount: 300, reason: 'spent' });
    const outcome = await inWrite(m.profileId, (w) => w.cancelCredit(id, 'fraud'));
    expect(outcome).toMatchObject({ ok: true, taken: 700 });
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(0);
    expect(view.transactions.map((t) => [t.kind, t.amount, t.status])).toEqual([
      ['cancellation', -700, 'confirmed'],
      ['debit', -300, 'confirmed'],
      ['event_reward', 1000, 'cancelled'],
    ]);
    expect(await inWrite(m.profileId, (w) => w.cancelCredit(id, 'again'))).toEqual({ ok: false, why: 'already_cancelled' });
  });

  it('refuses to cancel what is not a credit, or a transaction of another member', async () => {
    const a = await newMember();
    const b = await newMember();
    const credit = (await ledger.write(shopId, a.profileId, (w) => w.credit(reward(500)))).transactionId;
    const debit = (await loyalty.debitManual(shopId, a.identifier, { amount: 100, reason: 'x' })).transactionId;
    expect(await inWrite(a.profileId, (w) => w.cancelCredit(debit, null))).toEqual({ ok: false, why: 'not_a_credit' });
    expect(await inWrite(b.profileId, (w) => w.cancelCredit(credit, null))).toEqual({ ok: false, why: 'not_found' });
    expect(await inWrite(a.profileId, (w) => w.cancelCredit(999_999, null))).toEqual({ ok: false, why: 'not_found' });
    expect((await loyalty.viewMember(shopId, a.identifier)).balance).toBe(400);
  });

  it('cancels a pending reward before it is confirmed, and then it never confirms', async () => {
    const m = await newMember();
    const id = (await ledger.write(shopId, m.profileId, (w) => w.credit(reward(250, { status: 'pending' })))).transactionId;
    expect((await loyalty.viewMember(shopId, m.identifier)).pending).toBe(250);
    expect(await inWrite(m.profileId, (w) => w.cancelCredit(id, null))).toMatchObject({ ok: true, taken: 250 });
    expect(await inWrite(m.profileId, (w) => w.confirmLot(id))).toBe(false);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect([view.balance, view.pending]).toEqual([0, 0]);
  });

  it('confirms a pending lot once: it then pays', async () => {
    const m = await newMember();
    const id = (await ledger.write(shopId, m.profileId, (w) => w.credit(reward(250, { status: 'pending' })))).transactionId;
    expect(await inWrite(m.profileId, (w) => w.confirmLot(id))).toBe(true);
    expect(await inWrite(m.profileId, (w) => w.confirmLot(id))).toBe(false);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect([view.balance, view.pending]).toEqual([250, 0]);
    expect(view.transactions[0]).toMatchObject({ kind: 'event_reward', status: 'confirmed', amount: 250 });
  });

  it('refunds a debit once, to the very lots it drew from with their own expiry', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 100, expiresAt: NOW + 2 * DAY });
    await loyalty.creditManual(shopId, m.identifier, { amount: 100, expiresAt: NOW + 9 * DAY });
    const debit = (await loyalty.debitManual(shopId, m.identifier, { amount: 150, reason: 'order' })).transactionId;
    expect(await inWrite(m.profileId, (w) => w.refund(debit, 'returned'))).toMatchObject({ ok: true, refunded: 150 });
    expect(await inWrite(m.profileId, (w) => w.refund(debit, 'returned'))).toEqual({ ok: false, why: 'already_refunded' });
    const lots = await db.db
      .selectFrom('loyalty_lots')
      .select(['remaining', 'expires_at'])
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', m.profileId)
      .orderBy('id')
      .execute();
    expect(lots.map((l) => [Number(l.remaining), Number(l.expires_at)])).toEqual([
      [100, NOW + 2 * DAY],
      [100, NOW + 9 * DAY],
    ]);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(200);
    expect(view.transactions.slice(0, 2).map((t) => [t.kind, t.amount, t.status])).toEqual([
      ['refund', 150, 'confirmed'],
      ['debit', -150, 'cancelled'],
    ]);
  });

  it('refunds a captured hold, and refuses an active or released one', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 500 });
    const active = (await ledger.write(shopId, m.profileId, (w) => w.hold('o-1', 100))).transactionId;
    expect(await inWrite(m.profileId, (w) => w.refund(active, null))).toEqual({ ok: false, why: 'not_refundable' });
    await settleBonusHold(db, ledger, shopId, active, 'released');
    expect(await inWrite(m.profileId, (w) => w.refund(active, null))).toEqual({ ok: false, why: 'not_refundable' });
    const captured = (await ledger.write(shopId, m.profileId, (w) => w.hold('o-2', 200))).transactionId;
    await settleBonusHold(db, ledger, shopId, captured, 'captured');
    expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(300);
    expect(await inWrite(m.profileId, (w) => w.refund(captured, null))).toMatchObject({ ok: true, refunded: 200 });
    expect(await inWrite(m.profileId, (w) => w.refund(captured, null))).toEqual({ ok: false, why: 'already_refunded' });
    expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(500);
  });

  it('writes an expired lot off as an expiry entry, only once it has expired', async () => {
    const m = await newMember();
    const id = (await loyalty.creditManual(shopId, m.identifier, { amount: 400, expiresAt: NOW + DAY })).transactionId;
    await ledger.write(shopId, m.profileId, (w) => w.hold('o-1', 150));
    expect(await inWrite(m.profileId, (w) => w.expireLot(id))).toBe(0);
    clock.set(NOW + DAY);
    expect(await inWrite(m.profileId, (w) => w.expireLot(id))).toBe(250);
    expect(await inWrite(m.profileId, (w) => w.expireLot(id))).toBe(0);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.transactions[0]).toMatchObject({ kind: 'expiry', amount: -250, status: 'confirmed' });
    // The hold released after expiry gives its part back to the expired lot, which pays nothing
    // and is written off again by the next expiry run.
    const hold = view.transactions.find((t) => t.kind === 'order_hold');
    await settleBonusHold(db, ledger, shopId, hold?.id as number, 'released');
    expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(0);
    expect(await inWrite(m.profileId, (w) => w.expireLot(id))).toBe(150);
  });
});
