import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRunner } from '../../src/jobs/runner.js';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { loyaltyJoinRequest } from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * Event rewards end to end and PATCH /loyalty/bonuses/cancel (interface.md endpoint 13,
 * issue 13 part 4, docs/loyalty.md "Event rewards"), on both databases: a rule PUT
 * through the admin API, the member's app sending POST /push/custom with that code, the
 * `tracking.deliver` job run, the credit seen in the member's ledger, then the cancel in
 * the request shape of the platform's reference (JSON, `id` as a string) and with
 * `transaction_id`, and every refusal with its status and sentence in the success envelope.
 */

const PHONE = '79001234567';

type Body = Record<string, unknown>;

describe.each(TEST_DIALECTS)('event rewards and PATCH /loyalty/bonuses/cancel on %s', (dialect) => {
  let t: TestApp;
  let runner: JobRunner;
  let shopId: string;
  let secret: string;
  let device: { did: string; sid: string };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    const shop = await createShopFixture(t.app.services);
    shopId = shop.shopId;
    secret = shop.secret;
    for (const code of ['signed_up', 'app_rated', 'reviewed', 'plain']) {
      await t.app.services.shops.createCustomEvent(shopId, { code });
    }
    for (const [code, amount] of [
      ['signed_up', 100],
      ['app_rated', 50.5],
      ['reviewed', 30],
    ] as const) {
      const put = await admin('PUT', `/shops/${shopId}/loyalty/event-rewards/${code}`, { amount });
      expect(put.statusCode, put.body).toBe(200);
    }
    device = await initDevice(t, shopId);
    const joined = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone: '+7 (900) 123-45-67' }));
    expect(joined.statusCode, joined.body).toBe(200);
  });

  afterAll(async () => {
    await t.close();
  });

  function admin(method: 'GET' | 'PUT' | 'POST', path: string, payload?: Body): Promise<LightMyRequestResponse> {
    return t.app.inject({ method, url: `/admin/v1${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  }

  /** What the member's app sends for a custom event, then the job runner delivering it. */
  async function sendCustomEvent(event: string, from = device, shop = shopId): Promise<void> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/push/custom',
      headers: { 'content-type': 'application/json' },
      payload: { shop_id: shop, did: from.did, sid: from.sid, event, category: 'app' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await t.app.services.loyaltyRewards.ruleCodesSettled();
    while ((await runner.runDue()) > 0);
  }

  interface MemberBody {
    balance: number;
    pending: number;
    transactions: { id: number; amount: number; status: string; kind: string }[];
  }

  async function member(identifier = PHONE, shop = shopId): Promise<MemberBody> {
    const response = await admin('GET', `/shops/${shop}/loyalty/members/${identifier}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemberBody>();
  }

  async function rewardFor(reason: (m: MemberBody) => MemberBody['transactions'][number] | undefined): Promise<number> {
    const found = reason(await member());
    if (!found) throw new Error('no such reward');
    return found.id;
  }

  function cancel(body: Body, contentType = 'application/json'): Promise<LightMyRequestResponse> {
    return t.app.inject({
      method: 'PATCH',
      url: '/loyalty/bonuses/cancel',
      headers: { 'content-type': contentType },
      payload: contentType === 'application/json' ? JSON.stringify(body) : String(body.raw),
    });
  }

  function expectSuccess(response: LightMyRequestResponse): void {
    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 200, body: '{"success":true}' });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  }

  function expectRefusal(response: LightMyRequestResponse, status: number, message: string): void {
    expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
      status,
      body: { success: false, payload: { message } },
    });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  }

  it('credits the member for a custom event with a rewarded code, once, and cancels it with the reference body (`id` as a string)', async () => {
    await sendCustomEvent('signed_up');
    await sendCustomEvent('signed_up');
    const before = await member();
    expect(before).toMatchObject({ balance: 100, pending: 0 });
    expect(before.transactions.map((x) => [x.kind, x.amount, x.status])).toEqual([['event_reward', 100, 'confirmed']]);
    const id = before.transactions[0]!.id;

    expectSuccess(await cancel({ shop_id: shopId, shop_secret: secret, identifier: PHONE, id: String(id) }));
    const after = await member();
    expect(after.balance).toBe(0);
    expect(after.transactions.map((x) => [x.kind, x.amount, x.status])).toEqual([
      ['cancellation', -100, 'confirmed'],
      ['event_reward', 100, 'cancelled'],
    ]);
    // Once per member and code, cancelled or not.
    await sendCustomEvent('signed_up');
    expect((await member()).transactions).toHaveLength(2);
  });

  it('cancels with `transaction_id` as an integer, with both names when they agree, and with the phone in another spelling', async () => {
    await sendCustomEvent('app_rated');
    const rated = await rewardFor((m) => m.transactions.find((x) => x.kind === 'event_reward' && x.status === 'confirmed'));
    expect((await member()).balance).toBe(50.5);
    expectSuccess(
      await cancel({ shop_id: shopId, shop_secret: secret, identifier: '8 (900) 123-45-67', transaction_id: rated, id: rated }),
    );
    expect((await member()).balance).toBe(0);
  });

  it('cancels a reward partly spent up to what is left, leaving the spend as it was', async () => {
    await sendCustomEvent('reviewed');
    const reviewed = await rewardFor((m) => m.transactions.find((x) => x.kind === 'event_reward' && x.status === 'confirmed'));
    expect((await admin('POST', `/shops/${shopId}/loyalty/members/${PHONE}/bonuses`, { amount: 20 })).statusCode).toBe(201);
    const debit = await admin('POST', `/shops/${shopId}/loyalty/members/${PHONE}/bonuses/debit`, { amount: 12, reason: 'paid' });
    expect(debit.json()).toMatchObject({ balance: 38 });
    expectSuccess(await cancel({ shop_id: shopId, shop_secret: secret, identifier: PHONE, transaction_id: String(reviewed) }));
    const after = await member();
    expect(after.balance).toBe(20);
    expect(after.transactions.slice(0, 4).map((x) => [x.kind, x.amount, x.status])).toEqual([
      ['cancellation', -18, 'confirmed'],
      ['debit', -12, 'confirmed'],
      ['manual', 20, 'confirmed'],
      ['event_reward', 30, 'cancelled'],
    ]);
  });

  it('rewards nothing for a code without a rule, nor a device whose customer is not a member', async () => {
    const written = async () =>
      (await t.db.db.selectFrom('loyalty_transactions').select('id').where('shop_id', '=', shopId).execute()).length;
    const before = await written();
    await sendCustomEvent('plain');
    const stranger = await initDevice(t, shopId);
    await sendCustomEvent('signed_up', stranger);
    expect(await written()).toBe(before);
  });

  describe('refusals', () => {
    let rewardId: number;
    let manualId: number;
    let otherShop: { shopId: string; secret: string };
    let inactiveShop: { shopId: string; secret: string };

    beforeAll(async () => {
      await t.app.services.shops.createCustomEvent(shopId, { code: 'shared' });
      await admin('PUT', `/shops/${shopId}/loyalty/event-rewards/shared`, { amount: 5 });
      await sendCustomEvent('shared');
      rewardId = await rewardFor((m) => m.transactions.find((x) => x.kind === 'event_reward' && x.status === 'confirmed'));
      const manual = await admin('POST', `/shops/${shopId}/loyalty/members/${PHONE}/bonuses`, { amount: 1 });
      manualId = manual.json<{ transaction_id: number }>().transaction_id;
      otherShop = await createShopFixture(t.app.services);
      // The same phone is a member of the other shop, with no transactions of its own.
      await admin('POST', `/shops/${otherShop.shopId}/loyalty/members`, { phone: PHONE });
      inactiveShop = await createShopFixture(t.app.services);
      await admin('POST', `/shops/${inactiveShop.shopId}/loyalty/members`, { phone: PHONE });
      await t.app.services.shops.updateShop(inactiveShop.shopId, { active: false });
      // Another member with a reward of its own.
      const other = await initDevice(t, shopId);
      await t.app.inject(loyaltyJoinRequest({ shopId, ...other }, { phone: '79005550000' }));
      await sendCustomEvent('shared', other);
    });

    const good = (fields: Body = {}): Body => ({ shop_id: shopId, shop_secret: secret, identifier: PHONE, id: rewardId, ...fields });
    const without = (name: string, fields: Body = {}): Body => {
      const body = good(fields);
      delete body[name];
      return body;
    };

    it.each<[string, () => Body, number, string]>([
      ['shop_id absent → 401', () => without('shop_id'), 401, 'Parameter `shop_id` is required.'],
      ['shop_id malformed → 422', () => good({ shop_id: 'xyz' }), 422, 'Parameter `shop_id` must be 30 hexadecimal characters.'],
      ['an unknown shop → 404', () => good({ shop_id: '0'.repeat(30) }), 404, 'Shop not found'],
      ['shop_secret absent → 401', () => without('shop_secret'), 401, 'API secret is not correct'],
      ['a wrong shop_secret → 401', () => good({ shop_secret: 'wrong' }), 401, 'API secret is not correct'],
      ["another shop's secret → 401", () => good({ shop_secret: otherShop.secret }), 401, 'API secret is not correct'],
      [
        'an inactive shop → 403',
        () => good({ shop_id: inactiveShop.shopId, shop_secret: inactiveShop.secret }),
        403,
        'Shop is not active.',
      ],
      ['identifier absent → 422', () => without('identifier'), 422, 'Identifier is not valid'],
      ['identifier empty → 422', () => good({ identifier: '' }), 422, 'Identifier is not valid'],
      ['identifier of 256 characters → 422', () => good({ identifier: 'a'.repeat(256) }), 422, 'Identifier is not valid'],
      ['identifier an object → 422', () => good({ identifier: { phone: PHONE } }), 422, 'Identifier is not valid'],
      ['a phone of no member → 404', () => good({ identifier: '79009999999' }), 404, 'Loyalty program member is not found'],
      ['a loyalty_id of no member → 404', () => good({ identifier: 'no-such-card' }), 404, 'Loyalty program member is not found'],
      ['neither transaction_id nor id → 422', () => without('id'), 422, 'Parameter `transaction_id` is required.'],
      ['id empty → 422', () => good({ id: '' }), 422, 'Parameter `transaction_id` is required.'],
      ['id not a number → 422', () => good({ id: 'abc' }), 422, 'Parameter `id` must be an integer of at least 1.'],
      ['id 0 → 422', () => good({ id: 0 }), 422, 'Parameter `id` must be an integer of at least 1.'],
      ['id negative → 422', () => good({ id: '-5' }), 422, 'Parameter `id` must be an integer of at least 1.'],
      ['id fractional → 422', () => good({ id: 1.5 }), 422, 'Parameter `id` must be an integer of at least 1.'],
      ['id beyond 2^53 → 422', () => good({ id: '9007199254740993' }), 422, 'Parameter `id` must be an integer of at least 1.'],
      [
        'transaction_id malformed → 422',
        () => without('id', { transaction_id: 'x1' }),
        422,
        'Parameter `transaction_id` must be an integer of at least 1.',
      ],
      [
        'transaction_id and id differ → 422',
        () => good({ transaction_id: rewardId + 1 }),
        422,
        'Parameters `transaction_id` and `id` name different transactions.',
      ],
      ['an unknown transaction → 404', () => good({ id: 999_999 }), 404, 'Transaction is not found.'],
      ["another member's reward → 404", () => good({ identifier: '79005550000' }), 404, 'Transaction is not found.'],
      [
        'the transaction of another shop → 404',
        () => good({ shop_id: otherShop.shopId, shop_secret: otherShop.secret }),
        404,
        'Transaction is not found.',
      ],
      ['a manual credit → 409', () => good({ id: manualId }), 409, 'Transaction is not a reward for an event and cannot be cancelled.'],
    ])('%s', async (_name, body, status, message) => {
      const balance = (await member()).balance;
      expectRefusal(await cancel(body()), status, message);
      // Nothing half-written: the reward is still there.
      expect((await member()).balance).toBe(balance);
    });

    it('answers 409 for a reward already cancelled', async () => {
      expectSuccess(await cancel(good()));
      expectRefusal(await cancel(good()), 409, 'Transaction is already cancelled.');
    });

    it('reads an urlencoded form as well', async () => {
      const raw = `shop_id=${shopId}&shop_secret=${encodeURIComponent(secret)}&identifier=${PHONE}&id=999999`;
      expectRefusal(await cancel({ raw }, 'application/x-www-form-urlencoded'), 404, 'Transaction is not found.');
    });

    it('answers 405 to another method', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/loyalty/bonuses/cancel', payload: good() });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toContain('PATCH');
      // The endpoint's own envelope, as every other refusal of it.
      expect(response.json()).toEqual({ success: false, payload: { message: 'Method POST is not allowed for this endpoint.' } });
    });
  });

  it('is in the OpenAPI document under loyalty', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    const paths = response.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>().paths;
    expect(paths['/loyalty/bonuses/cancel']?.patch?.tags).toEqual(['loyalty']);
  });
});
