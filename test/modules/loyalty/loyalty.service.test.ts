import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { AppError } from '../../../src/errors.js';
import { Late } from '../../../src/late.js';
import { IdentityService, type MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import { DEFAULT_SETTINGS } from '../../../src/modules/loyalty/domain/settings.js';
import { LoyaltyLedger } from '../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyService } from '../../../src/modules/loyalty/loyalty.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { settleBonusHold } from '../../helpers/order-holds.js';
import { createShopFixture } from '../../helpers/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('loyalty service on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  let identity: IdentityService;
  let loyalty: LoyaltyService;
  let ledger: LoyaltyLedger;
  let shopId: string;
  let phoneSeq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
    const mergeParticipants = Late.namedList<MergeParticipant>('merge participant');
    identity = new IdentityService({ db, clock, mergeParticipants });
    ledger = new LoyaltyLedger({ db, clock });
    loyalty = new LoyaltyService({ db, clock, shops, identity, ledger });
    mergeParticipants.bind([loyalty.mergeParticipant()]);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock.set(NOW);
    shopId = (await createShopFixture({ shops })).shopId;
  });

  async function newMember(): Promise<{ identifier: string; profileId: number }> {
    phoneSeq += 1;
    return loyalty.joinMember(shopId, { phone: `7900${String(phoneSeq).padStart(7, '0')}` });
  }

  async function lotRemainders(profileId: number): Promise<number[]> {
    const rows = await db.db
      .selectFrom('loyalty_lots')
      .select('remaining')
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', profileId)
      .orderBy('id')
      .execute();
    return rows.map((r) => Number(r.remaining));
  }

  async function expectRefusal(promise: Promise<unknown>, code: AppError['code']): Promise<string> {
    const error: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    return (error as AppError).message;
  }

  it('answers the default settings before the first PUT, and the stored ones after', async () => {
    expect(await loyalty.getSettings(shopId)).toEqual(DEFAULT_SETTINGS);
    const settings = { rewardPercent: 250, maxBonusSharePercent: 5000, bonusValue: 100, bonusLifetimeDays: 365, rewardPendingDays: 14 };
    expect(await loyalty.putSettings(shopId, settings)).toEqual(settings);
    expect(await loyalty.getSettings(shopId)).toEqual(settings);
  });

  it('joins a profile once, by phone, and finds it by phone in any written form and by loyalty_id', async () => {
    const first = await loyalty.joinMember(shopId, { phone: '+7 (900) 555-00-11', loyaltyId: 'card-1' });
    expect(first).toMatchObject({ identifier: '79005550011', balance: 0 });
    const again = await loyalty.joinMember(shopId, { phone: '79005550011' });
    expect(again.profileId).toBe(first.profileId);
    expect((await loyalty.findMember(shopId, '89005550011')).profileId).toBe(first.profileId);
    expect(await loyalty.findMember(shopId, 'card-1')).toEqual({ profileId: first.profileId, identifier: '79005550011' });
    const cardOnly = await loyalty.joinMember(shopId, { loyaltyId: 'card-2', email: 'a@example.com' });
    expect(cardOnly.identifier).toBe('card-2');
  });

  it('refuses a member without phone or loyalty_id, and does not find a profile that never joined', async () => {
    await expectRefusal(loyalty.joinMember(shopId, { email: 'x@example.com' }), 'VALIDATION_FAILED');
    await identity.resolveProfile(shopId, { phone: '79001112233' });
    await expectRefusal(loyalty.findMember(shopId, '79001112233'), 'NOT_FOUND');
    await expectRefusal(loyalty.findMember(shopId, 'no-such-card'), 'NOT_FOUND');
  });

  it('keeps members of one shop out of another shop', async () => {
    const member = await newMember();
    await loyalty.creditManual(shopId, member.identifier, { amount: 500 });
    const other = (await createShopFixture({ shops })).shopId;
    await expectRefusal(loyalty.findMember(other, member.identifier), 'NOT_FOUND');
  });

  it('credits confirmed lots, debits oldest expiry first (no expiry last) and records which lots paid', async () => {
    const m = await newMember();
    const never = await loyalty.creditManual(shopId, m.identifier, { amount: 1000 });
    const late = await loyalty.creditManual(shopId, m.identifier, { amount: 300, expiresAt: NOW + 20 * DAY });
    const soon = await loyalty.creditManual(shopId, m.identifier, { amount: 200, expiresAt: NOW + 5 * DAY });
    expect(soon.balance).toBe(1500);
    const debit = await loyalty.debitManual(shopId, m.identifier, { amount: 450, reason: 'correction' });
    expect(debit.balance).toBe(1050);
    expect(await lotRemainders(m.profileId)).toEqual([1000, 50, 0]);
    const allocations = await db.db
      .selectFrom('loyalty_allocations')
      .select(['lot_id', 'amount'])
      .where('shop_id', '=', shopId)
      .where('transaction_id', '=', debit.transactionId)
      .orderBy('lot_id')
      .execute();
    expect(allocations.map((a) => [Number(a.lot_id), Number(a.amount)])).toEqual([
      [late.transactionId, 250],
      [soon.transactionId, 200],
    ]);
    expect(never.transactionId).toBeLessThan(late.transactionId);
  });

  it('uses the programme lifetime when a credit names no expiry, and refuses an expiry not in the future', async () => {
    await loyalty.putSettings(shopId, { ...DEFAULT_SETTINGS, bonusLifetimeDays: 30 });
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 100 });
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.transactions[0]?.expiresAt).toBe(NOW + 30 * DAY);
    await expectRefusal(loyalty.creditManual(shopId, m.identifier, { amount: 100, expiresAt: NOW }), 'VALIDATION_FAILED');
    expect((await loyalty.viewMember(shopId, m.identifier)).transactions).toHaveLength(1);
  });

  it('stops counting a lot at its expiry and never draws from it', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 300, expiresAt: NOW + DAY });
    await loyalty.creditManual(shopId, m.identifier, { amount: 100 });
    clock.set(NOW + DAY);
    expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(100);
    const message = await expectRefusal(loyalty.debitManual(shopId, m.identifier, { amount: 101, reason: 'x' }), 'CONFLICT');
    expect(message).toBe('Not enough bonuses: the balance is 1.00.');
    expect(await lotRemainders(m.profileId)).toEqual([300, 100]);
  });

  it('refuses a debit beyond the balance with nothing written', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 500 });
    await expectRefusal(loyalty.debitManual(shopId, m.identifier, { amount: 501, reason: 'too much' }), 'CONFLICT');
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(500);
    expect(view.transactions).toHaveLength(1);
    expect(await lotRemainders(m.profileId)).toEqual([500]);
  });

  it('lists every change newest first with signed amounts', async () => {
    const m = await newMember();
    const credit = await loyalty.creditManual(shopId, m.identifier, { amount: 500, reason: 'welcome' });
    clock.advance(1000);
    const debit = await loyalty.debitManual(shopId, m.identifier, { amount: 120, reason: 'fix' });
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view).toMatchObject({ identifier: m.identifier, balance: 380, pending: 0 });
    expect(view.transactions).toEqual([
      {
        id: debit.transactionId,
        amount: -120,
        status: 'confirmed',
        kind: 'debit',
        orderId: null,
        reason: 'fix',
        createdAt: NOW + 1000,
        expiresAt: null,
      },
      {
        id: credit.transactionId,
        amount: 500,
        status: 'confirmed',
        kind: 'manual',
        orderId: null,
        reason: 'welcome',
        createdAt: NOW,
        expiresAt: null,
      },
    ]);
  });

  it('a hold blocks its amount from the balance; a release restores exactly its lots; a capture spends them, once', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 100, expiresAt: NOW + 2 * DAY });
    await loyalty.creditManual(shopId, m.identifier, { amount: 400 });
    const hold = await ledger.write(shopId, m.profileId, (w) => w.hold('order-1', 250));
    expect(hold.balance).toBe(250);
    expect(await lotRemainders(m.profileId)).toEqual([0, 250]);
    await expectRefusal(
      ledger.write(shopId, m.profileId, (w) => w.hold('order-2', 251)),
      'CONFLICT',
    );
    expect(await settleBonusHold(db, ledger, shopId, hold.transactionId, 'released')).toBe(true);
    expect(await settleBonusHold(db, ledger, shopId, hold.transactionId, 'captured')).toBe(false);
    expect(await lotRemainders(m.profileId)).toEqual([100, 400]);
    const second = await ledger.write(shopId, m.profileId, (w) => w.hold('order-3', 150));
    expect(await settleBonusHold(db, ledger, shopId, second.transactionId, 'captured')).toBe(true);
    expect(await settleBonusHold(db, ledger, shopId, second.transactionId, 'released')).toBe(false);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(350);
    expect(view.transactions.slice(0, 2).map((t) => [t.kind, t.amount, t.status, t.orderId])).toEqual([
      ['order_hold', -150, 'confirmed', 'order-3'],
      ['order_hold', -250, 'cancelled', 'order-1'],
    ]);
  });

  it('refuses a second active hold of one order, and takes one again after a release', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 500 });
    const first = await ledger.write(shopId, m.profileId, (w) => w.hold('order-9', 100));
    expect(
      await expectRefusal(
        ledger.write(shopId, m.profileId, (w) => w.hold('order-9', 100)),
        'CONFLICT',
      ),
    ).toBe('The order already has bonuses on hold.');
    expect(await lotRemainders(m.profileId)).toEqual([400]);
    await settleBonusHold(db, ledger, shopId, first.transactionId, 'released');
    expect((await ledger.write(shopId, m.profileId, (w) => w.hold('order-9', 300))).balance).toBe(200);
  });

  it('moves the ledger with a profile merge', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 700 });
    const other = await identity.resolveProfile(shopId, { email: 'merge@example.com' });
    // One event naming both identifiers merges the two profiles.
    const merged = await identity.resolveProfile(shopId, { phone: m.identifier, email: 'merge@example.com' });
    expect(merged.merges.length).toBe(1);
    const survivor = merged.profileId;
    expect([m.profileId, other.profileId]).toContain(survivor);
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.profileId).toBe(survivor);
    expect(view.balance).toBe(700);
  });

  it('lets exactly 10 of 100 simultaneous spends of 1 unit through a balance of 10 units', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 400, expiresAt: NOW + DAY });
    await loyalty.creditManual(shopId, m.identifier, { amount: 600 });
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => loyalty.debitManual(shopId, m.identifier, { amount: 100, reason: `spend ${i}` })),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).message).toBe('Not enough bonuses: the balance is 0.00.');
    }
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(0);
    expect(view.transactions.filter((t) => t.kind === 'debit')).toHaveLength(10);
    expect(await lotRemainders(m.profileId)).toEqual([0, 0]);
  });

  it('lets exactly 10 of 100 simultaneous holds and debits of 1 unit each through a balance of 10 units', async () => {
    const m = await newMember();
    await loyalty.creditManual(shopId, m.identifier, { amount: 1000 });
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? ledger.write(shopId, m.profileId, (w) => w.hold(`order-${i}`, 100))
          : loyalty.debitManual(shopId, m.identifier, { amount: 100, reason: `spend ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('CONFLICT');
    const holds = await db.db
      .selectFrom('loyalty_holds')
      .select((eb) => eb.fn.sum<number>('amount').as('held'))
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', m.profileId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    const view = await loyalty.viewMember(shopId, m.identifier);
    expect(view.balance).toBe(0);
    const debits = view.transactions.filter((t) => t.kind === 'debit').length;
    expect(Number(holds?.held ?? 0)).toBe((10 - debits) * 100);
    expect(await lotRemainders(m.profileId)).toEqual([0]);
  });
});
