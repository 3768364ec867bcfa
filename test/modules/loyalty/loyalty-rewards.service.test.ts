import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { Late } from '../../../src/late.js';
import { IdentityService, type MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import { DEFAULT_SETTINGS } from '../../../src/modules/loyalty/domain/settings.js';
import { LoyaltyLedger } from '../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyRewardsService } from '../../../src/modules/loyalty/loyalty-rewards.service.js';
import { LoyaltyService } from '../../../src/modules/loyalty/loyalty.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import type { StoredEvent } from '../../../src/modules/tracking/tracking.types.js';
import { refusalOf } from '../../helpers/app-error.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('loyalty event rewards on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  let identity: IdentityService;
  let loyalty: LoyaltyService;
  let rewards: LoyaltyRewardsService;
  let shopId: string;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
    const mergeParticipants = Late.namedList<MergeParticipant>('merge participant');
    identity = new IdentityService({ db, clock, mergeParticipants });
    const ledger = new LoyaltyLedger({ db, clock });
    loyalty = new LoyaltyService({ db, clock, shops, identity, ledger });
    rewards = new LoyaltyRewardsService({ db, clock, shops, identity, ledger, loyalty });
    mergeParticipants.bind([loyalty.mergeParticipant(), rewards.mergeParticipant()]);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock.set(NOW);
    shopId = (await createShopFixture({ shops })).shopId;
  });

  async function newMember(inShop = shopId): Promise<{ identifier: string; profileId: number }> {
    seq += 1;
    return loyalty.joinMember(inShop, { phone: `7911${String(seq).padStart(7, '0')}` });
  }

  /** A stored custom event as tracking hands it to subscribers. */
  function customEvent(profileId: number, code: string, fields: Partial<StoredEvent> = {}): StoredEvent {
    seq += 1;
    return { id: seq, shopId, profileId, did: null, event: code, custom: true, time: clock.now(), items: [], params: {}, ...fields };
  }

  async function rewardedRows(profileId: number): Promise<{ event_code: string; transaction_id: number }[]> {
    const rows = await db.db
      .selectFrom('loyalty_event_rewarded')
      .select(['event_code', 'transaction_id'])
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', profileId)
      .orderBy('event_code')
      .execute();
    return rows.map((r) => ({ event_code: r.event_code, transaction_id: Number(r.transaction_id) }));
  }

  describe('rules', () => {
    it('creates, replaces, reads, lists and removes a rule', async () => {
      expect(await rewards.putRule(shopId, 'signed_up', 10_000)).toEqual({ eventCode: 'signed_up', amount: 10_000 });
      expect(await rewards.putRule(shopId, 'app_rated', 5_050)).toEqual({ eventCode: 'app_rated', amount: 5_050 });
      expect(await rewards.putRule(shopId, 'signed_up', 25_000)).toEqual({ eventCode: 'signed_up', amount: 25_000 });
      expect(await rewards.getRule(shopId, 'signed_up')).toEqual({ eventCode: 'signed_up', amount: 25_000 });
      expect(await rewards.listRules(shopId)).toEqual([
        { eventCode: 'app_rated', amount: 5_050 },
        { eventCode: 'signed_up', amount: 25_000 },
      ]);
      await rewards.deleteRule(shopId, 'signed_up');
      expect((await refusalOf(rewards.getRule(shopId, 'signed_up'))).message).toBe('Event reward `signed_up` does not exist.');
      expect((await refusalOf(rewards.deleteRule(shopId, 'signed_up'))).code).toBe('NOT_FOUND');
      expect(await rewards.listRules(shopId)).toEqual([{ eventCode: 'app_rated', amount: 5_050 }]);
    });

    it('keeps each shop to its own rules', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      const other = (await createShopFixture({ shops })).shopId;
      expect(await rewards.listRules(other)).toEqual([]);
      expect((await refusalOf(rewards.deleteRule(other, 'signed_up'))).code).toBe('NOT_FOUND');
      expect(await rewards.getRule(shopId, 'signed_up')).toEqual({ eventCode: 'signed_up', amount: 100 });
    });

    it('refuses a code custom events cannot have, an amount that is not a positive integer of kopecks, and an unknown shop', async () => {
      for (const code of ['Signed_Up', 'a-b', '', 'x'.repeat(65)]) {
        expect((await refusalOf(rewards.putRule(shopId, code, 100))).code, code).toBe('VALIDATION_FAILED');
      }
      for (const amount of [0, -100, 1.5]) {
        expect((await refusalOf(rewards.putRule(shopId, 'signed_up', amount))).code, String(amount)).toBe('VALIDATION_FAILED');
      }
      expect((await refusalOf(rewards.putRule('f'.repeat(30), 'signed_up', 100))).code).toBe('NOT_FOUND');
      expect(await rewards.listRules(shopId)).toEqual([]);
    });
  });

  describe('rewarding events', () => {
    it('credits a member once per code as a confirmed event reward that lives the programme lifetime', async () => {
      await loyalty.putSettings(shopId, { ...DEFAULT_SETTINGS, bonusLifetimeDays: 30 });
      await rewards.putRule(shopId, 'signed_up', 10_000);
      await rewards.putRule(shopId, 'app_rated', 500);
      const m = await newMember();
      const first = await rewards.rewardEvent(customEvent(m.profileId, 'signed_up'));
      expect(first).toEqual({ rewarded: true, transactionId: expect.any(Number) });
      expect(await rewards.rewardEvent(customEvent(m.profileId, 'signed_up'))).toEqual({ rewarded: false, why: 'already_rewarded' });
      expect(await rewards.rewardEvent(customEvent(m.profileId, 'app_rated'))).toMatchObject({ rewarded: true });
      const view = await loyalty.viewMember(shopId, m.identifier);
      expect(view).toMatchObject({ balance: 10_500, pending: 0 });
      expect(view.transactions.map((t) => [t.kind, t.amount, t.status, t.expiresAt])).toEqual([
        ['event_reward', 500, 'confirmed', NOW + 30 * DAY],
        ['event_reward', 10_000, 'confirmed', NOW + 30 * DAY],
      ]);
      expect(view.transactions[1]?.id).toBe(first.rewarded ? first.transactionId : -1);
    });

    it('handles the same event twice (a redelivery) as one reward', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      const m = await newMember();
      const event = customEvent(m.profileId, 'signed_up');
      expect(await rewards.rewardEvent(event)).toMatchObject({ rewarded: true });
      expect(await rewards.rewardEvent(event)).toEqual({ rewarded: false, why: 'already_rewarded' });
      expect((await loyalty.viewMember(shopId, m.identifier)).transactions).toHaveLength(1);
    });

    it('gives a pending reward for reward_pending_days, whose lifetime counts from when it becomes spendable', async () => {
      await loyalty.putSettings(shopId, { ...DEFAULT_SETTINGS, bonusLifetimeDays: 30, rewardPendingDays: 14 });
      await rewards.putRule(shopId, 'signed_up', 700);
      const m = await newMember();
      const outcome = await rewards.rewardEvent(customEvent(m.profileId, 'signed_up'));
      expect(outcome).toMatchObject({ rewarded: true });
      const view = await loyalty.viewMember(shopId, m.identifier);
      expect(view).toMatchObject({ balance: 0, pending: 700 });
      expect(view.transactions.map((t) => [t.kind, t.status, t.expiresAt])).toEqual([['event_reward', 'pending', NOW + 44 * DAY]]);
      const lot = await db.db
        .selectFrom('loyalty_lots')
        .select(['confirms_at', 'status'])
        .where('shop_id', '=', shopId)
        .executeTakeFirstOrThrow();
      expect({ confirmsAt: Number(lot.confirms_at), status: lot.status }).toEqual({ confirmsAt: NOW + 14 * DAY, status: 'pending' });
    });

    it('credits the amount of the rule when the event is handled', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      const m = await newMember();
      const event = customEvent(m.profileId, 'signed_up');
      await rewards.putRule(shopId, 'signed_up', 250);
      await rewards.rewardEvent(event);
      expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(250);
    });

    it('rewards nothing for a profile that is not a member, a code without a rule, or an event that is not custom', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      const guest = await identity.resolveProfile(shopId, { email: 'guest@example.org' });
      expect(await rewards.rewardEvent(customEvent(guest.profileId, 'signed_up'))).toEqual({ rewarded: false, why: 'not_a_member' });
      const m = await newMember();
      expect(await rewards.rewardEvent(customEvent(m.profileId, 'no_rule'))).toEqual({ rewarded: false, why: 'no_rule' });
      expect(await rewards.rewardEvent(customEvent(m.profileId, 'signed_up', { custom: false }))).toEqual({
        rewarded: false,
        why: 'not_custom',
      });
      const other = (await createShopFixture({ shops })).shopId;
      const otherMember = await newMember(other);
      expect(await rewards.rewardEvent(customEvent(otherMember.profileId, 'signed_up', { shopId: other }))).toEqual({
        rewarded: false,
        why: 'no_rule',
      });
      const written = await db.db.selectFrom('loyalty_transactions').select('id').where('shop_id', 'in', [shopId, other]).execute();
      expect(written).toEqual([]);
      expect(await rewardedRows(guest.profileId)).toEqual([]);
    });

    it('credits exactly once when 20 events of one code are handled at the same time', async () => {
      await rewards.putRule(shopId, 'signed_up', 300);
      const m = await newMember();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => rewards.rewardEvent(customEvent(m.profileId, 'signed_up'))));
      expect(outcomes.filter((o) => o.rewarded)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.rewarded && o.why === 'already_rewarded')).toHaveLength(19);
      const view = await loyalty.viewMember(shopId, m.identifier);
      expect(view.balance).toBe(300);
      expect(view.transactions).toHaveLength(1);
      expect(await rewardedRows(m.profileId)).toEqual([{ event_code: 'signed_up', transaction_id: view.transactions[0]?.id }]);
    });

    it('follows a merged profile to its survivor', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      const m = await newMember();
      const guest = await identity.resolveProfile(shopId, { email: 'merged@example.org' });
      const merged = await identity.resolveProfile(shopId, { phone: m.identifier, email: 'merged@example.org' });
      const loser = merged.profileId === m.profileId ? guest.profileId : m.profileId;
      expect(await rewards.rewardEvent(customEvent(loser, 'signed_up'))).toMatchObject({ rewarded: true });
      expect(await rewardedRows(merged.profileId)).toHaveLength(1);
      expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(100);
    });

    it('keeps one rewarded row per code when two rewarded members merge, and every credit they had', async () => {
      await rewards.putRule(shopId, 'signed_up', 100);
      await rewards.putRule(shopId, 'app_rated', 40);
      const a = await newMember();
      const b = await loyalty.joinMember(shopId, { loyaltyId: 'card-b', email: 'b@example.org' });
      await rewards.rewardEvent(customEvent(a.profileId, 'signed_up'));
      await rewards.rewardEvent(customEvent(b.profileId, 'signed_up'));
      await rewards.rewardEvent(customEvent(b.profileId, 'app_rated'));
      const merged = await identity.resolveProfile(shopId, { phone: a.identifier, email: 'b@example.org' });
      expect(merged.merges).toHaveLength(1);
      const survivor = merged.profileId;
      expect((await rewardedRows(survivor)).map((r) => r.event_code)).toEqual(['app_rated', 'signed_up']);
      expect(await rewardedRows(survivor === a.profileId ? b.profileId : a.profileId)).toEqual([]);
      const view = await loyalty.viewMember(shopId, a.identifier);
      expect(view.balance).toBe(240);
      for (const code of ['signed_up', 'app_rated']) {
        expect(await rewards.rewardEvent(customEvent(survivor, code))).toEqual({ rewarded: false, why: 'already_rewarded' });
      }
    });
  });

  describe('cancelling a reward', () => {
    async function rewardedMember(amount: number): Promise<{ identifier: string; profileId: number; rewardId: number }> {
      await rewards.putRule(shopId, 'signed_up', amount);
      const m = await newMember();
      const outcome = await rewards.rewardEvent(customEvent(m.profileId, 'signed_up'));
      if (!outcome.rewarded) throw new Error('not rewarded');
      return { ...m, rewardId: outcome.transactionId };
    }

    it('takes an unspent reward back whole, once', async () => {
      const m = await rewardedMember(500);
      expect(await rewards.cancelReward(shopId, m.identifier, m.rewardId)).toEqual({ ok: true, taken: 500 });
      const view = await loyalty.viewMember(shopId, m.identifier);
      expect(view).toMatchObject({ balance: 0, pending: 0 });
      expect(view.transactions.map((t) => [t.kind, t.amount, t.status])).toEqual([
        ['cancellation', -500, 'confirmed'],
        ['event_reward', 500, 'cancelled'],
      ]);
      expect(await rewards.cancelReward(shopId, m.identifier, m.rewardId)).toEqual({ ok: false, why: 'already_cancelled' });
      expect((await loyalty.viewMember(shopId, m.identifier)).transactions).toHaveLength(2);
    });

    it('cancels a reward partly spent up to what is left; what was spent stays spent', async () => {
      const m = await rewardedMember(500);
      await loyalty.creditManual(shopId, m.identifier, { amount: 1000 });
      // Neither lot expires: the older one, the reward, pays first.
      await loyalty.debitManual(shopId, m.identifier, { amount: 300, reason: 'spent at the till' });
      const before = await loyalty.viewMember(shopId, m.identifier);
      expect(before.balance).toBe(1200);
      expect(await rewards.cancelReward(shopId, m.identifier, m.rewardId)).toEqual({ ok: true, taken: 200 });
      const after = await loyalty.viewMember(shopId, m.identifier);
      expect(after.balance).toBe(1000);
      expect(after.transactions.map((t) => [t.kind, t.amount, t.status])).toEqual([
        ['cancellation', -200, 'confirmed'],
        ['debit', -300, 'confirmed'],
        ['manual', 1000, 'confirmed'],
        ['event_reward', 500, 'cancelled'],
      ]);
    });

    it('cancels a pending reward', async () => {
      await loyalty.putSettings(shopId, { ...DEFAULT_SETTINGS, rewardPendingDays: 7 });
      const m = await rewardedMember(300);
      expect(await rewards.cancelReward(shopId, m.identifier, m.rewardId)).toEqual({ ok: true, taken: 300 });
      expect(await loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 0, pending: 0 });
    });

    it("refuses an unknown transaction, another member's, another shop's, and a transaction that is not an event reward, writing nothing", async () => {
      const m = await rewardedMember(500);
      const other = await newMember();
      await rewards.rewardEvent(customEvent(other.profileId, 'signed_up'));
      const manual = await loyalty.creditManual(shopId, m.identifier, { amount: 100 });
      const debit = await loyalty.debitManual(shopId, m.identifier, { amount: 50, reason: 'x' });
      const elsewhere = (await createShopFixture({ shops })).shopId;
      const stranger = await newMember(elsewhere);
      await rewards.putRule(elsewhere, 'signed_up', 500);
      const foreign = await rewards.rewardEvent(customEvent(stranger.profileId, 'signed_up', { shopId: elsewhere }));
      expect(foreign).toMatchObject({ rewarded: true });
      const count = async () =>
        (await db.db.selectFrom('loyalty_transactions').select('id').where('shop_id', '=', shopId).execute()).length;
      const written = await count();

      expect(await rewards.cancelReward(shopId, m.identifier, 999_999)).toEqual({ ok: false, why: 'not_found' });
      expect(await rewards.cancelReward(shopId, other.identifier, m.rewardId)).toEqual({ ok: false, why: 'not_found' });
      // The other shop's reward has an id this shop's member may not reach.
      expect(await rewards.cancelReward(elsewhere, m.identifier, foreign.rewarded ? foreign.transactionId : 0)).toEqual({
        ok: false,
        why: 'member_not_found',
      });
      expect(await rewards.cancelReward(shopId, stranger.identifier, 1)).toEqual({ ok: false, why: 'member_not_found' });
      expect(await rewards.cancelReward(shopId, m.identifier, manual.transactionId)).toEqual({ ok: false, why: 'not_a_reward' });
      expect(await rewards.cancelReward(shopId, m.identifier, debit.transactionId)).toEqual({ ok: false, why: 'not_a_reward' });
      expect(await rewards.cancelReward(shopId, 'no-such-card', m.rewardId)).toEqual({ ok: false, why: 'member_not_found' });
      expect(await count()).toBe(written);
      expect((await loyalty.viewMember(shopId, m.identifier)).balance).toBe(550);
    });

    it("finds the reward of a merged member under the survivor's identifier", async () => {
      const m = await rewardedMember(500);
      await identity.resolveProfile(shopId, { email: 'later@example.org', externalId: 'crm-1' });
      await identity.resolveProfile(shopId, { phone: m.identifier, email: 'later@example.org' });
      expect(await rewards.cancelReward(shopId, m.identifier, m.rewardId)).toEqual({ ok: true, taken: 500 });
    });
  });

  describe('the tracking subscriber', () => {
    it('accepts custom events of a shop whose rules are not known yet, then only the codes it rewards; a rule change applies at once', async () => {
      const subscriber = rewards.trackingSubscriber();
      const event = (code: string, custom = true) => customEvent(1, code, { custom });
      expect(subscriber.accepts(event('signed_up', false))).toBe(false);
      expect(subscriber.accepts(event('signed_up'))).toBe(true);
      await rewards.ruleCodesSettled();
      expect(subscriber.accepts(event('signed_up'))).toBe(false);
      await rewards.putRule(shopId, 'signed_up', 100);
      expect(subscriber.accepts(event('signed_up'))).toBe(true);
      await rewards.ruleCodesSettled();
      expect(subscriber.accepts(event('signed_up'))).toBe(true);
      expect(subscriber.accepts(event('app_rated'))).toBe(false);
      await rewards.deleteRule(shopId, 'signed_up');
      await rewards.ruleCodesSettled();
      subscriber.accepts(event('signed_up'));
      await rewards.ruleCodesSettled();
      expect(subscriber.accepts(event('signed_up'))).toBe(false);
    });
  });
});
