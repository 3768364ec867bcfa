import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/modules/loyalty/domain/levels.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe.each(TEST_DIALECTS)('loyalty referrals on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  let phoneSeq = 0;
  let orderSeq = 0;

  beforeEach(async () => {
    await referrals().putProgram(bed.shopId, { enabled: true, referrerReward: { type: 'fixed', value: 100_00 } });
  });

  const referrals = () => bed.services.loyaltyReferrals;
  const levels = () => bed.services.loyaltyLevels;
  const nextPhone = () => `7904${String((phoneSeq += 1)).padStart(7, '0')}`;
  const nextOrder = () => `ref-order-${(orderSeq += 1)}`;

  /** A referrer, and a referee who joined naming its code. */
  async function pair(): Promise<{
    referrer: { profileId: number; identifier: string };
    referee: { profileId: number; identifier: string };
  }> {
    const referrer = await bed.services.loyalty.joinMember(bed.shopId, { phone: nextPhone() });
    const { code } = await referrals().memberReferral(bed.shopId, referrer.identifier);
    const referee = await referrals().joinWithReferrer(bed.shopId, { phone: nextPhone() }, code);
    return { referrer, referee };
  }

  async function referralCredits(profileId: number) {
    const rows = await bed.db.db
      .selectFrom('loyalty_lots')
      .select(['id', 'amount', 'remaining', 'status', 'order_id', 'expires_at', 'confirms_at'])
      .where('shop_id', '=', bed.shopId)
      .where('profile_id', '=', profileId)
      .where('kind', '=', 'referral')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      ...r,
      amount: Number(r.amount),
      remaining: Number(r.remaining),
      expires_at: r.expires_at === null ? null : Number(r.expires_at),
      confirms_at: r.confirms_at === null ? null : Number(r.confirms_at),
    }));
  }

  const balance = async (identifier: string) => (await bed.services.loyalty.viewMember(bed.shopId, identifier)).balance;

  it("credits the referrer once, for the referee's first confirmed purchase only", async () => {
    const { referrer, referee } = await pair();
    const first = nextOrder();
    await levels().recordPurchase(bed.shopId, referee.profileId, first, 2_000_00, NOW);
    await levels().recordPurchase(bed.shopId, referee.profileId, first, 2_000_00, NOW);
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 3_000_00, NOW);
    expect(await referralCredits(referrer.profileId)).toEqual([
      {
        id: expect.any(Number),
        amount: 100_00,
        remaining: 100_00,
        status: 'confirmed',
        order_id: first,
        expires_at: null,
        confirms_at: null,
      },
    ]);
    expect(await balance(referrer.identifier)).toBe(100_00);
    expect(await referrals().memberReferral(bed.shopId, referrer.identifier)).toMatchObject({ referrals: 1, rewarded: 1 });
    // The referee itself earns nothing from its referral.
    expect(await referralCredits(referee.profileId)).toEqual([]);
  });

  it('credits a pending reward when rewards wait, living the programme lifetime from when it may be spent', async () => {
    const settings = await bed.services.loyalty.getSettings(bed.shopId);
    await bed.services.loyalty.putSettings(bed.shopId, { ...settings, rewardPendingDays: 14, bonusLifetimeDays: 90 });
    await referrals().putProgram(bed.shopId, { enabled: true, referrerReward: { type: 'percent', value: 250 } });
    const { referrer, referee } = await pair();
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 1_234_56, NOW);
    // 2.5% of 1 234.56 is 30.864: 30.86 bonuses, rounded down.
    expect(await referralCredits(referrer.profileId)).toEqual([
      expect.objectContaining({ amount: 30_86, status: 'pending', confirms_at: NOW + 14 * DAY_MS, expires_at: NOW + 104 * DAY_MS }),
    ]);
    expect((await bed.services.loyalty.viewMember(bed.shopId, referrer.identifier)).pending).toBe(30_86);
  });

  it('writes exactly one credit when 20 reports of the same first order race, and when 20 different first orders race', async () => {
    const same = await pair();
    const order = nextOrder();
    await Promise.all(Array.from({ length: 20 }, () => levels().recordPurchase(bed.shopId, same.referee.profileId, order, 1_000_00, NOW)));
    expect(await referralCredits(same.referrer.profileId)).toHaveLength(1);

    const different = await pair();
    await Promise.all(
      Array.from({ length: 20 }, () => levels().recordPurchase(bed.shopId, different.referee.profileId, nextOrder(), 1_000_00, NOW)),
    );
    expect(await referralCredits(different.referrer.profileId)).toHaveLength(1);
    expect(await balance(different.referrer.identifier)).toBe(100_00);
  });

  it('takes the reward back when its purchase is cancelled, once, and a later purchase earns nothing', async () => {
    const { referrer, referee } = await pair();
    const first = nextOrder();
    await levels().recordPurchase(bed.shopId, referee.profileId, first, 1_000_00, NOW);
    // The referrer spends part of the reward: a cancel takes back what is left.
    await bed.services.loyalty.debitManual(bed.shopId, referrer.identifier, { amount: 40_00, reason: 'spent' });
    expect(await levels().cancelPurchase(bed.shopId, first)).toBe(true);
    expect(await referralCredits(referrer.profileId)).toEqual([expect.objectContaining({ status: 'cancelled', remaining: 0 })]);
    expect(await balance(referrer.identifier)).toBe(0);
    expect(await levels().cancelPurchase(bed.shopId, first)).toBe(false);
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 1_000_00, NOW);
    expect(await referralCredits(referrer.profileId)).toHaveLength(1);
    expect(await referrals().memberReferral(bed.shopId, referrer.identifier)).toMatchObject({ referrals: 1, rewarded: 0 });
  });

  it('rewards nothing while the programme is off, and closes the referral on that first purchase', async () => {
    const { referrer, referee } = await pair();
    await referrals().putProgram(bed.shopId, { enabled: false, referrerReward: { type: 'fixed', value: 100_00 } });
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 1_000_00, NOW);
    await referrals().putProgram(bed.shopId, { enabled: true, referrerReward: { type: 'fixed', value: 100_00 } });
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 1_000_00, NOW);
    expect(await referralCredits(referrer.profileId)).toEqual([]);
  });

  it('does not record a referral for a member who has bought already, nor a second referrer', async () => {
    const referrer = await bed.services.loyalty.joinMember(bed.shopId, { phone: nextPhone() });
    const { code } = await referrals().memberReferral(bed.shopId, referrer.identifier);
    const buyer = await bed.services.loyalty.joinMember(bed.shopId, { phone: nextPhone() });
    await levels().recordPurchase(bed.shopId, buyer.profileId, nextOrder(), 1_000_00, NOW);
    await referrals().joinWithReferrer(bed.shopId, { phone: buyer.identifier }, code);
    expect(await referrals().memberReferral(bed.shopId, referrer.identifier)).toMatchObject({ referrals: 0 });

    const { referee } = await pair();
    const other = await bed.services.loyalty.joinMember(bed.shopId, { phone: nextPhone() });
    const otherCode = (await referrals().memberReferral(bed.shopId, other.identifier)).code;
    expect(await referrals().attachReferrer(bed.shopId, referee.profileId, other.profileId)).toBe(false);
    await referrals().joinWithReferrer(bed.shopId, { phone: referee.identifier }, otherCode);
    expect(await referrals().memberReferral(bed.shopId, other.identifier)).toMatchObject({ referrals: 0 });
  });

  it("answers the checkout's read of a referee's referrer until its first purchase", async () => {
    const settings = await bed.services.loyalty.getSettings(bed.shopId);
    await bed.services.loyalty.putSettings(bed.shopId, { ...settings, bonusValue: 200 });
    await referrals().putProgram(bed.shopId, { enabled: true, referrerReward: { type: 'percent', value: 1000 } });
    const { referrer, referee } = await pair();
    const read = await referrals().referralOf(bed.shopId, referee.profileId);
    expect(read).toMatchObject({
      referrerIdentifier: referrer.identifier,
      program: { id: 1, enabled: true, referrerReward: { type: 'percent', value: 1000 } },
    });
    // 10% of 1 000.00 is 100.00 currency units; at 2.00 a bonus, 50.00 bonuses.
    expect(read?.rewardFor(1_000_00)).toBe(50_00);
    expect(await referrals().referralOf(bed.shopId, referrer.profileId)).toBeNull();
    await levels().recordPurchase(bed.shopId, referee.profileId, nextOrder(), 1_000_00, NOW);
    expect(await referrals().referralOf(bed.shopId, referee.profileId)).toBeNull();
    expect(await referralCredits(referrer.profileId)).toEqual([expect.objectContaining({ amount: 50_00 })]);
  });

  it("keeps a referee's referral through a merge of its profiles, and a code names the surviving member", async () => {
    const referrer = await bed.services.loyalty.joinMember(bed.shopId, { loyaltyId: `card-${nextPhone()}` });
    const { code } = await referrals().memberReferral(bed.shopId, referrer.identifier);
    const card = `referee-card-${nextPhone()}`;
    const referee = await referrals().joinWithReferrer(bed.shopId, { loyaltyId: card }, code);
    const phone = nextPhone();
    const phoneMember = await bed.services.loyalty.joinMember(bed.shopId, { phone });
    // One person: the referee's card and the phone merge into one profile.
    const merged = await bed.services.identity.resolveProfile(bed.shopId, { phone, loyaltyId: card });
    expect(merged.merges.length).toBe(1);
    expect([referee.profileId, phoneMember.profileId]).toContain(merged.profileId);
    await levels().recordPurchase(bed.shopId, merged.profileId, nextOrder(), 1_000_00, NOW);
    expect(await referralCredits(referrer.profileId)).toHaveLength(1);

    // The referrer merges with another profile: its code names the survivor.
    const referrerPhone = nextPhone();
    await bed.services.loyalty.joinMember(bed.shopId, { phone: referrerPhone });
    const survivor = await bed.services.identity.resolveProfile(bed.shopId, { phone: referrerPhone, loyaltyId: referrer.identifier });
    expect(await referrals().findReferrer(bed.shopId, code)).toEqual({ ok: true, profileId: survivor.profileId });
  });
});
