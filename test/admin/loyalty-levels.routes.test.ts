import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;
const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

type Body = Record<string, unknown>;

const LADDER = {
  window_days: 30,
  levels: [
    { code: 'silver', name: 'Silver', min_total: 1000.5, reward_percent: 2.5 },
    { code: 'gold', name: 'Gold', min_total: 5000, reward_percent: 7 },
  ],
};

describe.each(TEST_DIALECTS)('admin loyalty level and referral routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/loyalty`;

  async function newShop(): Promise<string> {
    t.clock.set(NOW);
    return (await createShopFixture(t.app.services)).shopId;
  }

  async function join(shopId: string, body: Body): Promise<ReturnType<typeof inject>> {
    return inject('POST', `${base(shopId)}/members`, body);
  }

  describe('levels', () => {
    it('answers no levels over a year before the first PUT, and the ladder as stored after it', async () => {
      const shopId = await newShop();
      const before = await inject('GET', `${base(shopId)}/levels`);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({ window_days: 365, levels: [] });
      const put = await inject('PUT', `${base(shopId)}/levels`, LADDER);
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toEqual(LADDER);
      expect((await inject('GET', `${base(shopId)}/levels`)).json()).toEqual(LADDER);
      const defaults = await inject('PUT', `${base(shopId)}/levels`, { levels: [] });
      expect(defaults.json()).toEqual({ window_days: 365, levels: [] });
    });

    it.each([
      [{ ...LADDER, window_days: 0 }, 'window_days'],
      [{ ...LADDER, window_days: 3651 }, 'window_days'],
      [{ window_days: 30 }, 'levels'],
      [{ ...LADDER, levels: [LADDER.levels[0], { ...LADDER.levels[1], code: 'silver' }] }, 'levels[1].code'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], code: 'Silver' }] }, 'levels[0].code'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], code: 'x'.repeat(33) }] }, 'levels[0].code'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], name: '' }] }, 'levels[0].name'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], name: 'n'.repeat(101) }] }, 'levels[0].name'],
      [{ ...LADDER, levels: [LADDER.levels[1], LADDER.levels[0]] }, 'levels[1].min_total'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], min_total: 1.005 }] }, 'levels[0].min_total'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], min_total: -1 }] }, 'levels[0].min_total'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], reward_percent: 100.5 }] }, 'levels[0].reward_percent'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], reward_percent: 1.234 }] }, 'levels[0].reward_percent'],
      [{ ...LADDER, levels: [{ ...LADDER.levels[0], extra: 1 }] }, 'levels[0].extra'],
      [
        { ...LADDER, levels: Array.from({ length: 21 }, (_, i) => ({ code: `l${i}`, name: `L${i}`, min_total: i, reward_percent: 1 })) },
        'levels',
      ],
    ])('refuses %j with 422 naming %s, leaving the ladder as it was', async (body, field) => {
      const shopId = await newShop();
      await inject('PUT', `${base(shopId)}/levels`, LADDER);
      const message = expectAdminError(await inject('PUT', `${base(shopId)}/levels`, body), 422, 'VALIDATION_FAILED');
      expect(message).toContain(`\`${field}\``);
      expect((await inject('GET', `${base(shopId)}/levels`)).json()).toEqual(LADDER);
    });

    it("shows the member's level and when it drops in the member view", async () => {
      const shopId = await newShop();
      await inject('PUT', `${base(shopId)}/levels`, LADDER);
      await join(shopId, { phone: '79001110001' });
      const member = await t.app.services.loyalty.findMember(shopId, '79001110001');
      expect((await inject('GET', `${base(shopId)}/members/79001110001`)).json()).toMatchObject({ level: null });
      await t.app.services.loyaltyLevels.recordPurchase(shopId, member.profileId, 'O-1', 1_200_00, NOW - 10 * DAY);
      const view = await inject('GET', `${base(shopId)}/members/79001110001`);
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json()).toMatchObject({
        level: { code: 'silver', name: 'Silver', reward_percent: 2.5, expires_at: new Date(NOW + 20 * DAY).toISOString() },
      });
    });

    it('answers 404 for an unknown shop', async () => {
      expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/levels`), 404, 'NOT_FOUND');
      expectAdminError(await inject('PUT', `${base(UNKNOWN_SHOP)}/levels`, LADDER), 404, 'NOT_FOUND');
    });
  });

  describe('referral programme', () => {
    const PROGRAM = { enabled: true, referrer_reward: { type: 'fixed', value: 150.5 } };

    it('is off before the first PUT, and answers the programme as stored after it', async () => {
      const shopId = await newShop();
      const before = await inject('GET', `${base(shopId)}/referral`);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({ id: 1, enabled: false, referrer_reward: { type: 'fixed', value: 0 } });
      const put = await inject('PUT', `${base(shopId)}/referral`, PROGRAM);
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toEqual({ id: 1, ...PROGRAM });
      const percent = { enabled: true, referrer_reward: { type: 'percent', value: 2.5 } };
      expect((await inject('PUT', `${base(shopId)}/referral`, percent)).json()).toEqual({ id: 1, ...percent });
      expect((await inject('GET', `${base(shopId)}/referral`)).json()).toEqual({ id: 1, ...percent });
    });

    it.each([
      [{ enabled: true, referrer_reward: { type: 'percent', value: 100.01 } }, 'referrer_reward.value'],
      [{ enabled: true, referrer_reward: { type: 'fixed', value: 1.005 } }, 'referrer_reward.value'],
      [{ enabled: true, referrer_reward: { type: 'fixed', value: -1 } }, 'referrer_reward.value'],
      [{ enabled: true, referrer_reward: { type: 'fixed', value: 2_000_000_000 } }, 'referrer_reward.value'],
      [{ enabled: true, referrer_reward: { type: 'bonus', value: 1 } }, 'referrer_reward.type'],
      [{ enabled: 'yes', referrer_reward: { type: 'fixed', value: 1 } }, 'enabled'],
      [{ enabled: true }, 'referrer_reward'],
    ])('refuses %j with 422 naming %s', async (body, field) => {
      const shopId = await newShop();
      const message = expectAdminError(await inject('PUT', `${base(shopId)}/referral`, body), 422, 'VALIDATION_FAILED');
      expect(message).toContain(`\`${field}\``);
    });

    it('gives a member one code on the first ask, and counts the members who joined naming it', async () => {
      const shopId = await newShop();
      await inject('PUT', `${base(shopId)}/referral`, PROGRAM);
      await join(shopId, { phone: '79002220001' });
      const first = await inject('GET', `${base(shopId)}/members/79002220001/referral`);
      expect(first.statusCode, first.body).toBe(200);
      const { code } = first.json<{ code: string }>();
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      expect(first.json()).toEqual({ code, referrals: 0, rewarded: 0 });
      // Typed by a customer: case and dashes do not matter.
      const referee = await join(shopId, { phone: '79002220002', referrer_code: ` ${code.slice(0, 4).toLowerCase()}-${code.slice(4)} ` });
      expect(referee.statusCode, referee.body).toBe(201);
      expect((await inject('GET', `${base(shopId)}/members/79002220001/referral`)).json()).toEqual({ code, referrals: 1, rewarded: 0 });
      // Joining again naming the code changes nothing.
      expect((await join(shopId, { phone: '79002220002', referrer_code: code })).statusCode).toBe(201);
      expect((await inject('GET', `${base(shopId)}/members/79002220001/referral`)).json()).toEqual({ code, referrals: 1, rewarded: 0 });
      expectAdminError(await inject('GET', `${base(shopId)}/members/79002229999/referral`), 404, 'NOT_FOUND');
    });

    it('refuses an unknown code, a member naming its own code and any code while the programme is off, writing nothing', async () => {
      const shopId = await newShop();
      await inject('PUT', `${base(shopId)}/referral`, PROGRAM);
      await join(shopId, { phone: '79003330001' });
      const { code } = (await inject('GET', `${base(shopId)}/members/79003330001/referral`)).json<{ code: string }>();

      expect(expectAdminError(await join(shopId, { phone: '79003330002', referrer_code: 'NOSUCHCODE' }), 422, 'VALIDATION_FAILED')).toBe(
        'Field `referrer_code` names no member of the loyalty programme.',
      );
      expectAdminError(await inject('GET', `${base(shopId)}/members/79003330002`), 404, 'NOT_FOUND');
      expect(expectAdminError(await join(shopId, { phone: '79003330001', referrer_code: code }), 422, 'VALIDATION_FAILED')).toBe(
        "Field `referrer_code` is the member's own code.",
      );
      expectAdminError(await join(shopId, { phone: '79003330002', referrer_code: 'x'.repeat(33) }), 422, 'VALIDATION_FAILED');

      await inject('PUT', `${base(shopId)}/referral`, { ...PROGRAM, enabled: false });
      expect(expectAdminError(await join(shopId, { phone: '79003330002', referrer_code: code }), 422, 'VALIDATION_FAILED')).toBe(
        'Field `referrer_code` cannot be used: the referral programme is off.',
      );
      expectAdminError(await inject('GET', `${base(shopId)}/members/79003330002`), 404, 'NOT_FOUND');
    });
  });

  it('documents the level and referral routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/admin/v1/shops/{shop_id}/loyalty/levels',
      '/admin/v1/shops/{shop_id}/loyalty/referral',
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/referral',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
