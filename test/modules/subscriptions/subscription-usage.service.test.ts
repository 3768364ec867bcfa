import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  SubscriptionUsageService,
  UsageHoldRequest,
  UsageShop,
} from '../../../src/modules/subscriptions/subscription-usage.service.js';
import type { Services } from '../../../src/services.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { PROMOTION } from '../promotions/fixtures.js';

/**
 * The usage holds of promos benefits (docs/subscriptions.md, "Holds"), with the real
 * repositories on both databases: the limits under concurrency, a repeat hold, capture
 * and release, and a period boundary passing while an order is held.
 */

const DAY = 86_400_000;
// 2026-01-15 12:00 Moscow: the member's periods start on 2026-01-15.
const START = Date.UTC(2026, 0, 15, 9, 0, 0);

describe.each(TEST_DIALECTS)('subscription usage on %s', (dialect) => {
  let t: TestApp;
  let services: Services;
  let usage: SubscriptionUsageService;
  let shop: UsageShop;
  let phones = 0;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(START);
    services = t.app.services;
    usage = services.subscriptionUsage;
    const fixture = await createShopFixture(services, { timezone: 'Europe/Moscow' });
    shop = { shopId: fixture.shopId, timezone: 'Europe/Moscow' };
    const sale = await services.promotions.createPromotion(shop.shopId, PROMOTION);
    await services.subscriptions.createSubscription(shop.shopId, { code: 'plus', name: 'Plus' });
    await services.subscriptions.createPlan(shop.shopId, 'plus', {
      code: 'monthly',
      name: 'Monthly',
      periodDays: 30,
      benefits: [{ code: 'sale', name: 'Sale', dataType: 'promos', promotionIds: [sale.id], savingsLimit: 1000_00, usageLimit: 3 }],
    });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A new loyalty member subscribed to plus/monthly, paid until `paidTill`. */
  async function subscriber(paidTill = '2026-12-31'): Promise<number> {
    phones += 1;
    const member = await services.loyalty.joinMember(shop.shopId, { phone: `7900000${String(phones).padStart(4, '0')}` });
    await services.subscriptionMembers.subscribe(shop.shopId, 'plus', { identifier: member.identifier, plan: 'monthly', paidTill });
    return member.profileId;
  }

  const request = (profileId: number, savings: number, uses = 1): UsageHoldRequest => ({
    subscription: 'plus',
    profileId,
    amounts: [{ benefit: 'sale', savings, uses }],
  });

  function hold(orderId: string, req: UsageHoldRequest) {
    return t.db.db.transaction().execute((trx) => usage.hold(trx, shop, orderId, req));
  }

  async function left(profileId: number) {
    const found = await usage.allowances(t.db.db, shop, 'plus', profileId);
    return found?.benefits[0]?.allowance;
  }

  it('lets exactly 3 of 50 concurrent orders hold a benefit with a usage limit of 3', async () => {
    const profileId = await subscriber();
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => hold(`race-${i}`, request(profileId, 1_00))));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'limit_reached' && o.benefit === 'sale')).toBe(true);
    expect(await left(profileId)).toMatchObject({ usageUsed: 3, usageLeft: 0, savingsUsed: 3_00 });
  });

  it('holds savings up to the limit and refuses what would pass it', async () => {
    const profileId = await subscriber();
    expect(await hold('s-1', request(profileId, 600_00))).toEqual({ ok: true, periodStart: '2026-01-15' });
    expect(await hold('s-2', request(profileId, 500_00))).toEqual({ ok: false, reason: 'limit_reached', benefit: 'sale' });
    expect((await hold('s-3', request(profileId, 400_00))).ok).toBe(true);
    expect(await left(profileId)).toMatchObject({ savingsUsed: 1000_00, savingsLeft: 0, usageUsed: 2, usageLeft: 1 });
  });

  it("replaces an order's own hold on a repeat, and puts it back when the repeat is refused", async () => {
    const profileId = await subscriber();
    expect((await hold('r-1', request(profileId, 300_00))).ok).toBe(true);
    expect((await hold('r-1', request(profileId, 700_00))).ok).toBe(true);
    expect(await left(profileId)).toMatchObject({ savingsUsed: 700_00, usageUsed: 1 });
    // Not counting r-1's own hold, the checkout sees the whole allowance for it.
    expect((await usage.allowances(t.db.db, shop, 'plus', profileId, 'r-1'))?.benefits[0]?.allowance).toMatchObject({
      savingsLeft: 1000_00,
      usageLeft: 3,
    });
    expect(await hold('r-1', request(profileId, 1000_01))).toEqual({ ok: false, reason: 'limit_reached', benefit: 'sale' });
    expect(await left(profileId)).toMatchObject({ savingsUsed: 700_00, usageUsed: 1 });
    expect(await hold('r-1', { subscription: 'plus', profileId, amounts: [{ benefit: 'nope', savings: 1, uses: 1 }] })).toEqual({
      ok: false,
      reason: 'unknown_benefit',
      benefit: 'nope',
    });
    expect(await left(profileId)).toMatchObject({ savingsUsed: 700_00, usageUsed: 1 });
  });

  it('captures once at confirm, and a cancel gives held or captured use back once', async () => {
    const profileId = await subscriber();
    await hold('c-1', request(profileId, 100_00));
    await hold('c-2', request(profileId, 200_00));
    expect(await t.db.db.transaction().execute((trx) => usage.capture(trx, shop.shopId, 'c-1'))).toBe(1);
    expect(await t.db.db.transaction().execute((trx) => usage.capture(trx, shop.shopId, 'c-1'))).toBe(0);
    expect(await left(profileId)).toMatchObject({ savingsUsed: 300_00, usageUsed: 2 });
    expect(await t.db.db.transaction().execute((trx) => usage.release(trx, shop.shopId, 'c-1'))).toBe(1);
    expect(await t.db.db.transaction().execute((trx) => usage.release(trx, shop.shopId, 'c-2'))).toBe(1);
    expect(await t.db.db.transaction().execute((trx) => usage.release(trx, shop.shopId, 'c-2'))).toBe(0);
    expect(await left(profileId)).toMatchObject({ savingsUsed: 0, usageUsed: 0, usageLeft: 3 });
  });

  it('keeps a hold in the period it was placed in when the period ends before the order is confirmed', async () => {
    t.clock.set(START);
    const profileId = await subscriber();
    for (const id of ['p-1', 'p-2', 'p-3']) expect((await hold(id, request(profileId, 100_00))).ok).toBe(true);
    // The last hour of the first period (it ends at midnight Moscow time starting 2026-02-14).
    t.clock.set(Date.UTC(2026, 1, 13, 20, 30));
    expect((await hold('p-4', request(profileId, 100_00))).ok).toBe(false);
    t.clock.set(Date.UTC(2026, 1, 13, 21, 0));
    const fresh = await usage.allowances(t.db.db, shop, 'plus', profileId);
    expect(fresh?.periodStart).toBe('2026-02-14');
    expect(fresh?.benefits[0]?.allowance).toMatchObject({ savingsUsed: 0, usageUsed: 0, usageLeft: 3 });
    // p-1 is confirmed and p-2 cancelled after the boundary: both settle in the first period.
    await t.db.db.transaction().execute((trx) => usage.capture(trx, shop.shopId, 'p-1'));
    await t.db.db.transaction().execute((trx) => usage.release(trx, shop.shopId, 'p-2'));
    expect(await left(profileId)).toMatchObject({ usageUsed: 0, usageLeft: 3 });
    // A repeat apply of the still-held p-3 moves its hold into the new period.
    expect(await hold('p-3', request(profileId, 100_00))).toEqual({ ok: true, periodStart: '2026-02-14' });
    expect(await left(profileId)).toMatchObject({ usageUsed: 1, savingsUsed: 100_00 });
    const status = await services.subscriptionMembers.status(shop, 'plus', `7900000${String(phones).padStart(4, '0')}`);
    expect(status.member).toMatchObject({ periodStart: '2026-02-14', limitsResetDate: '2026-03-16' });
    t.clock.set(START);
  });

  it('gives no benefit to a member whose paid_till is past, nor to one not subscribed', async () => {
    t.clock.set(START);
    const profileId = await subscriber('2026-01-20');
    t.clock.set(START + 6 * DAY);
    expect(await hold('u-1', request(profileId, 1_00))).toEqual({ ok: false, reason: 'not_active' });
    expect(await usage.allowances(t.db.db, shop, 'plus', profileId)).toBeNull();
    const stranger = await services.loyalty.joinMember(shop.shopId, { phone: '79009999999' });
    expect(await hold('u-2', request(stranger.profileId, 1_00))).toEqual({ ok: false, reason: 'not_subscribed' });
    t.clock.set(START);
  });

  it('names every promotion a promos benefit names as benefit-only', async () => {
    const ids = await usage.benefitPromotionIds(t.db.db, shop.shopId);
    expect(ids.size).toBe(1);
  });
});
