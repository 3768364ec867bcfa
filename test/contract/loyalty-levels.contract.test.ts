import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/modules/loyalty/domain/levels.js';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { loyaltyJoinRequest, loyaltyStatusRequest, type SdkState } from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * The level the mobile SDK reads from GET /loyalty/members/status and POST
 * /loyalty/members/join (`payload.level` with `name`, `code` and `expiration_date`, a
 * string or null in the SDK's models), and a join naming a `referrer_code`, on both
 * databases (docs/loyalty.md "Levels", "Referrals").
 */

// 21:30 UTC: already the next day in the shop's timezone (Europe/Moscow, UTC+3).
const NOW = Date.UTC(2026, 0, 15, 21, 30, 0);

describe.each(TEST_DIALECTS)('public loyalty levels and referrals on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let sdk: SdkState;
  let phoneSeq = 0;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
    shopId = (await createShopFixture(t.app.services)).shopId;
    const device = await initDevice(t, shopId);
    sdk = { shopId, did: device.did, sid: device.sid };
    await t.app.services.loyaltyLevels.putLadder(shopId, {
      windowDays: 30,
      levels: [
        { code: 'silver', name: 'Silver', minTotal: 1_000_00, rewardPercent: 300 },
        { code: 'gold', name: 'Gold', minTotal: 5_000_00, rewardPercent: 500 },
      ],
    });
    await t.app.services.loyaltyReferrals.putProgram(shopId, { enabled: true, referrerReward: { type: 'fixed', value: 50_00 } });
  });

  afterAll(async () => {
    await t.close();
  });

  const nextPhone = () => `7905${String((phoneSeq += 1)).padStart(7, '0')}`;

  async function memberWithPurchase(amount: number, at: number): Promise<string> {
    const phone = nextPhone();
    const { profileId } = await t.app.services.loyalty.joinMember(shopId, { phone });
    await t.app.services.loyaltyLevels.recordPurchase(shopId, profileId, `order-${phone}`, amount, at);
    return phone;
  }

  async function status(identifier: string, state: SdkState = sdk) {
    const response = await t.app.inject(loyaltyStatusRequest(state, identifier));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ status: string; payload: { member: boolean; level: unknown } }>();
  }

  describe('GET /loyalty/members/status', () => {
    it("answers a member's level with its name, code and the day it drops, in the shop's timezone", async () => {
      const phone = await memberWithPurchase(1_500_00, NOW - 10 * DAY_MS);
      // The purchase leaves the window 20 days from now: 2026-02-04T21:30Z, 2026-02-05 in Moscow.
      expect(await status(phone)).toEqual({
        status: 'success',
        payload: { member: true, level: { name: 'Silver', code: 'silver', expiration_date: '2026-02-05' } },
      });
    });

    it('answers level null for a member below the lowest level, and for the device of a customer who has not joined', async () => {
      const phone = await memberWithPurchase(999_99, NOW);
      expect(await status(phone)).toEqual({ status: 'success', payload: { member: true, level: null } });
      const stranger = await initDevice(t, shopId);
      expect(await status('', { shopId, ...stranger })).toEqual({ status: 'success', payload: { member: false, level: null } });
    });

    it("answers the level of the device's customer, and of a member named by a phone parameter", async () => {
      const device = await initDevice(t, shopId);
      const state = { shopId, ...device };
      const phone = nextPhone();
      const joined = await t.app.inject(loyaltyJoinRequest(state, { phone }));
      expect(joined.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
      const member = await t.app.services.loyalty.findMember(shopId, phone);
      await t.app.services.loyaltyLevels.recordPurchase(shopId, member.profileId, `order-${phone}`, 6_000_00, NOW);
      const gold = { name: 'Gold', code: 'gold', expiration_date: '2026-02-15' };
      expect(await status('', state)).toEqual({ status: 'success', payload: { member: true, level: gold } });
      const named = await t.app.inject({
        method: 'GET',
        url: `/loyalty/members/status?shop_id=${shopId}&did=${device.did}&phone=${phone}`,
      });
      expect(named.json()).toEqual({ status: 'success', payload: { member: true, level: gold } });
      // Joining again answers the level too.
      expect((await t.app.inject(loyaltyJoinRequest(state, { phone }))).json()).toEqual({
        status: 'success',
        payload: { member: true, level: gold },
      });
    });

    it('answers null once the level has dropped, at the instant its purchase leaves the window', async () => {
      const phone = await memberWithPurchase(1_000_00, NOW - 29 * DAY_MS);
      expect((await status(phone)).payload.level).toMatchObject({ code: 'silver', expiration_date: '2026-01-17' });
      try {
        t.clock.set(NOW + DAY_MS - 1);
        expect((await status(phone)).payload.level).toMatchObject({ code: 'silver' });
        t.clock.set(NOW + DAY_MS);
        expect((await status(phone)).payload.level).toBeNull();
      } finally {
        t.clock.set(NOW);
      }
    });

    it('answers expiration_date null for a level that never drops (min_total 0)', async () => {
      const shop = (await createShopFixture(t.app.services)).shopId;
      await t.app.services.loyaltyLevels.putLadder(shop, {
        windowDays: 30,
        levels: [{ code: 'base', name: 'Base', minTotal: 0, rewardPercent: 100 }],
      });
      await t.app.services.loyalty.joinMember(shop, { phone: '79009990000' });
      const device = await initDevice(t, shop);
      expect(await status('79009990000', { shopId: shop, ...device })).toEqual({
        status: 'success',
        payload: { member: true, level: { name: 'Base', code: 'base', expiration_date: null } },
      });
    });

    it("counts a member's tracked purchase (POST /push) toward its level", async () => {
      const device = await initDevice(t, shopId);
      const phone = nextPhone();
      await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone }));
      const pushed = await t.app.inject({
        method: 'POST',
        url: '/push',
        payload: {
          shop_id: shopId,
          did: device.did,
          event: 'purchase',
          order_id: `push-${phone}`,
          items: [{ id: 'sku-1', amount: 2, price: 700 }],
        },
      });
      expect(pushed.statusCode, pushed.body).toBe(200);
      const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
      await runner.runDue();
      expect((await status(phone)).payload.level).toEqual({ name: 'Silver', code: 'silver', expiration_date: '2026-02-15' });
    });
  });

  describe('POST /loyalty/members/join with referrer_code', () => {
    it('records the referrer named by its code, and the first confirmed purchase rewards it', async () => {
      const referrer = nextPhone();
      await t.app.services.loyalty.joinMember(shopId, { phone: referrer });
      const { code } = await t.app.services.loyaltyReferrals.memberReferral(shopId, referrer);
      const device = await initDevice(t, shopId);
      const phone = nextPhone();
      const joined = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone, referrer_code: code.toLowerCase() }));
      expect(joined.statusCode, joined.body).toBe(200);
      expect(await t.app.services.loyaltyReferrals.memberReferral(shopId, referrer)).toMatchObject({ referrals: 1, rewarded: 0 });
      const member = await t.app.services.loyalty.findMember(shopId, phone);
      await t.app.services.loyaltyLevels.recordPurchase(shopId, member.profileId, `first-${phone}`, 100_00, NOW);
      expect(await t.app.services.loyaltyReferrals.memberReferral(shopId, referrer)).toMatchObject({ referrals: 1, rewarded: 1 });
      expect((await t.app.services.loyalty.viewMember(shopId, referrer)).balance).toBe(50_00);
    });

    it.each([
      ['an unknown code → 422', { referrer_code: 'NOSUCHCODE' }, 'Parameter `referrer_code` names no member of the loyalty programme.'],
      ['a code of 33 characters → 422', { referrer_code: 'A'.repeat(33) }, 'Parameter `referrer_code` must be at most 32 characters.'],
      ['a code given as a number → 422', { referrer_code: 12345 }, 'Parameter `referrer_code` must be a string.'],
    ])('%s, and makes no one a member', async (_name, extra, message) => {
      const device = await initDevice(t, shopId);
      const phone = nextPhone();
      const response = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone, ...extra }));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({ status: 'error', payload: { message } });
      expect((await t.app.inject(loyaltyStatusRequest({ shopId, ...device }, phone))).statusCode).toBe(404);
    });

    it("refuses a member's own code with 422", async () => {
      const device = await initDevice(t, shopId);
      const phone = nextPhone();
      await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone }));
      const { code } = await t.app.services.loyaltyReferrals.memberReferral(shopId, phone);
      const again = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone, referrer_code: code }));
      expect(again.statusCode, again.body).toBe(422);
      expect(again.json()).toEqual({ status: 'error', payload: { message: "Parameter `referrer_code` is the member's own code." } });
    });
  });
});
