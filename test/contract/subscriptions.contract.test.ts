import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';

/**
 * Paid subscriptions end to end on both databases (interface.md endpoints 2 and 4, the
 * Subscription member, Benefit and Order tables; admin-api.md "Paid subscriptions";
 * contract-notes "Loyalty checkout" and "Secrets and errors"; docs/subscriptions.md):
 * the admin core sets a subscription up, and each row of the tables and each refusal is
 * checked as the exact body in the success envelope.
 */

const PHONE = '79001234567';
const OTHER_PHONE = '79007654321';
// 2026-01-15 12:00 in Moscow.
const START = Date.UTC(2026, 0, 15, 9, 0, 0);
const DAY = 86_400_000;

type Body = Record<string, unknown>;

describe.each(TEST_DIALECTS)('paid subscriptions on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  let promotionId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(START);
    const shop = await createShopFixture(t.app.services, { timezone: 'Europe/Moscow' });
    shopId = shop.shopId;
    secret = shop.secret;
    await importTestFeed(t.app.services, shopId, {
      offers: [{ id: 'coffee-1', name: 'Coffee beans 1 kg', price: 1, url: 'https://shop.example/c1' }],
    });
    for (const phone of [PHONE, OTHER_PHONE])
      expect((await admin('POST', `/shops/${shopId}/loyalty/members`, { phone })).statusCode).toBe(201);
    const promotion = await admin('POST', `/shops/${shopId}/promotions`, {
      name: 'Plus sale',
      status: 'active',
      discount: { type: 'percent', value: 10 },
    });
    expect(promotion.statusCode, promotion.body).toBe(201);
    promotionId = promotion.json<{ id: number }>().id;
    expect((await admin('POST', `/shops/${shopId}/subscriptions`, { code: 'plus', name: 'Plus' })).statusCode).toBe(201);
    const plan = await admin('POST', `/shops/${shopId}/subscriptions/plus/plans`, {
      code: 'monthly',
      name: 'Monthly',
      period_days: 30,
      benefits: [
        { code: 'free_delivery', name: 'Free delivery', data_type: 'boolean', value: true },
        { code: 'cashback', name: 'Cashback percent', data_type: 'integer', value: 5 },
        { code: 'sale', name: 'Member sale', data_type: 'promos', promotion_ids: [promotionId], savings_limit: 1000, usage_limit: 3 },
      ],
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const member = await admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
      identifier: '+7 (900) 123-45-67',
      plan: 'monthly',
      paid_till: '2026-03-31',
    });
    expect(member.statusCode, member.body).toBe(201);
    expect(member.json()).toEqual({
      identifier: PHONE,
      subscription: 'plus',
      plan: 'monthly',
      active: true,
      paid_till: '2026-03-31',
      limits_reset_date: '2026-02-14',
      started_on: '2026-01-15',
    });
  });

  afterAll(async () => {
    await t.close();
  });

  function admin(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: Body): Promise<LightMyRequestResponse> {
    return t.app.inject({ method, url: `/admin/v1${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  }
  const status = (query: Record<string, string>) => t.app.inject({ method: 'GET', url: '/loyalty/subscriptions/members/status', query });
  const orders = (query: Record<string, string>) => t.app.inject({ method: 'GET', url: '/loyalty/subscriptions/orders', query });
  const credentials = () => ({ shop_id: shopId, shop_secret: secret });

  function expectFailure(response: LightMyRequestResponse, code: number, message: string): void {
    expect(response.statusCode, response.body).toBe(code);
    expect(response.json()).toEqual({ success: false, payload: { message } });
  }

  /** An order through the checkout's apply, which records the subscription it was computed with. */
  async function applyOrder(orderId: string, identifier: string, subscription: string | null): Promise<Body> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/loyalty/checkout/apply',
      payload: {
        ...credentials(),
        order_id: orderId,
        identifier,
        ...(subscription === null ? {} : { subscription }),
        cart_items: [
          { product_id: 'coffee-1', price: 500, quantity: 2 },
          { product_id: 'unknown-x', price: 30, quantity: 1 },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ payload: Body }>().payload;
  }

  describe('GET /loyalty/subscriptions/members/status', () => {
    it('answers the member and every benefit, the promos value with the period’s use', async () => {
      const response = await status({ ...credentials(), identifier: PHONE, subscription: 'plus' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        payload: {
          message: 'Subscription member is found',
          member: {
            identifier: PHONE,
            subscription: 'plus',
            plan: 'monthly',
            active: true,
            paid_till: '2026-03-31',
            limits_reset_date: '2026-02-14',
          },
          benefits: [
            { code: 'free_delivery', name: 'Free delivery', data_type: 'boolean', value: true },
            { code: 'cashback', name: 'Cashback percent', data_type: 'integer', value: 5 },
            {
              code: 'sale',
              name: 'Member sale',
              data_type: 'promos',
              value: {
                promotions: [{ id: promotionId, name: 'Plus sale', status: 'active' }],
                savings_limit: 1000,
                savings_used: 0,
                savings_left: 1000,
                usage_limit: 3,
                usage_used: 0,
                usage_left: 3,
              },
            },
          ],
        },
      });
    });

    it('counts what orders hold and have used this period, and starts afresh at limits_reset_date', async () => {
      const s = t.app.services;
      const profileId = (await s.loyalty.findMember(shopId, PHONE)).profileId;
      const shop = { shopId, timezone: 'Europe/Moscow' };
      const hold = (orderId: string, savings: number) =>
        t.db.db.transaction().execute((trx) =>
          s.subscriptionUsage.hold(trx, shop, orderId, {
            subscription: 'plus',
            profileId,
            amounts: [{ benefit: 'sale', savings, uses: 1 }],
          }),
        );
      expect((await hold('held-1', 123_45)).ok).toBe(true);
      expect((await hold('held-2', 200_00)).ok).toBe(true);
      await t.db.db.transaction().execute((trx) => s.subscriptionUsage.capture(trx, shopId, 'held-2'));
      const value = async () =>
        (await status({ ...credentials(), identifier: PHONE, subscription: 'plus' })).json<{
          payload: { benefits: { value: unknown }[]; member: Body };
        }>().payload;
      // 323.45 used and 676.55 left, answered as Integer: used rounded up, left rounded down.
      expect((await value()).benefits[2]?.value).toMatchObject({ savings_used: 324, savings_left: 676, usage_used: 2, usage_left: 1 });
      t.clock.set(Date.UTC(2026, 1, 13, 21, 0));
      const next = await value();
      expect(next.member.limits_reset_date).toBe('2026-03-16');
      expect(next.benefits[2]?.value).toMatchObject({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
      t.clock.set(START);
      for (const id of ['held-1', 'held-2']) await t.db.db.transaction().execute((trx) => s.subscriptionUsage.release(trx, shopId, id));
    });

    it('answers active false once paid_till is past', async () => {
      t.clock.set(Date.UTC(2026, 2, 31, 20, 59));
      expect(
        (await status({ ...credentials(), identifier: PHONE, subscription: 'plus' })).json<{ payload: { member: Body } }>().payload.member
          .active,
      ).toBe(true);
      t.clock.set(Date.UTC(2026, 2, 31, 21, 0));
      expect(
        (await status({ ...credentials(), identifier: PHONE, subscription: 'plus' })).json<{ payload: { member: Body } }>().payload.member
          .active,
      ).toBe(false);
      t.clock.set(START);
    });

    it.each([
      [
        'an identifier that names no member',
        { identifier: '79990000000', subscription: 'plus' },
        404,
        'Loyalty program member is not found',
      ],
      ['an unknown subscription', { identifier: PHONE, subscription: 'gold' }, 404, 'Subscription is not found'],
      [
        'a member not subscribed',
        { identifier: OTHER_PHONE, subscription: 'plus' },
        404,
        'Loyalty program member is not subscribed to this subscription',
      ],
      ['an email as the identifier', { identifier: 'ann@example.org', subscription: 'plus' }, 422, 'Identifier is not valid'],
      ['no identifier', { subscription: 'plus' }, 422, 'Identifier is not valid'],
      ['no subscription', { identifier: PHONE }, 422, 'Parameter `subscription` is required.'],
    ])('refuses %s', async (_name, query, code, message) => {
      expectFailure(await status({ ...credentials(), ...query }), code, message);
    });

    it('answers a wrong method with 405 in the success envelope', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/loyalty/subscriptions/members/status',
        payload: { ...credentials(), identifier: PHONE, subscription: 'plus' },
      });
      expect(response.statusCode).toBe(405);
      expect(response.json()).toMatchObject({ success: false, payload: { message: expect.any(String) } });
    });

    it('refuses missing or wrong credentials in the success envelope', async () => {
      const query = { identifier: PHONE, subscription: 'plus' };
      expectFailure(await status({ ...query, shop_secret: secret }), 401, 'Parameter `shop_id` is required.');
      expectFailure(
        await status({ ...query, shop_id: 'xyz', shop_secret: secret }),
        422,
        'Parameter `shop_id` must be 30 hexadecimal characters.',
      );
      expectFailure(await status({ ...query, shop_id: '0'.repeat(30), shop_secret: secret }), 404, 'Shop not found');
      expectFailure(await status({ ...query, shop_id: shopId }), 401, 'API secret is not correct');
      expectFailure(await status({ ...query, shop_id: shopId, shop_secret: 'wrong' }), 401, 'API secret is not correct');
    });
  });

  describe('GET /loyalty/subscriptions/orders', () => {
    beforeAll(async () => {
      t.clock.set(Date.UTC(2026, 0, 20, 9, 0));
      await applyOrder('sub-1', PHONE, 'plus');
      t.clock.set(Date.UTC(2026, 0, 22, 20, 30)); // 23:30 in Moscow: still the 22nd there
      await applyOrder('sub-2', PHONE, 'plus');
      await applyOrder('plain-1', PHONE, null);
      t.clock.set(START);
    });

    it('lists the subscription’s orders newest first with the Order fields and discounts', async () => {
      const response = await orders({ ...credentials(), identifier: PHONE, subscription: 'plus' });
      expect(response.statusCode, response.body).toBe(200);
      const order = (id: string, date: string) => ({
        id,
        date,
        status: 'created',
        total: '927.00',
        discounts: {
          saved_total: 103,
          saved_by_discounts: 0,
          saved_by_bonuses: 0,
          saved_by_offers: 103,
          saved_by_certificates: 0,
          applied_promotions: [promotionId],
        },
        items: [
          { id: 'coffee-1', name: 'Coffee beans 1 kg', quantity: 2, price: 450 },
          { id: 'unknown-x', name: '---', quantity: 1, price: 27 },
        ],
      });
      expect(response.json()).toEqual({
        success: true,
        payload: {
          message: 'Orders of the subscription member',
          orders: [order('sub-2', '2026-01-22T20:30:00.000Z'), order('sub-1', '2026-01-20T09:00:00.000Z')],
        },
      });
    });

    it('keeps total equal to order_to_pay and items[].price to total_after_discounts_per_product of the checkout', async () => {
      t.clock.set(Date.UTC(2026, 0, 25, 9, 0));
      const applied = await applyOrder('sub-3', PHONE, 'plus');
      t.clock.set(START);
      const listed = (await orders({ ...credentials(), identifier: PHONE, subscription: 'plus' })).json<{ payload: { orders: Body[] } }>()
        .payload.orders[0]!;
      expect(listed.id).toBe('sub-3');
      expect(Number(listed.total)).toBe(applied.order_to_pay);
      const items = applied.items as { total_after_discounts_per_product: number }[];
      expect((listed.items as { price: number }[]).map((i) => i.price)).toEqual(items.map((i) => i.total_after_discounts_per_product));
      await t.app.inject({ method: 'POST', url: '/loyalty/checkout/cancel', payload: { ...credentials(), order_id: 'sub-3' } });
      const again = (await orders({ ...credentials(), identifier: PHONE, subscription: 'plus', date_from: '2026-01-25' })).json<{
        payload: { orders: Body[] };
      }>();
      expect(again.payload.orders.map((o) => [o.id, o.status])).toEqual([['sub-3', 'cancelled']]);
    });

    it.each([
      ['the 20th only', { date_from: '2026-01-20', date_to: '2026-01-20' }, ['sub-1']],
      [
        'the 21st to the 24th (23:30 in Moscow on the 22nd counts on the 22nd)',
        { date_from: '2026-01-21', date_to: '2026-01-24' },
        ['sub-2'],
      ],
      ['to the 22nd', { date_from: '2026-01-16', date_to: '2026-01-22' }, ['sub-2', 'sub-1']],
      ['a range with no orders', { date_from: '2026-01-23', date_to: '2026-01-24' }, []],
    ])('filters by date_from and date_to: %s', async (_name, range, ids) => {
      const response = await orders({ ...credentials(), identifier: PHONE, subscription: 'plus', ...range });
      expect(response.json<{ payload: { orders: Body[] } }>().payload.orders.map((o) => o.id)).toEqual(ids);
    });

    it.each([
      [
        'date_from after date_to',
        { date_from: '2026-01-22', date_to: '2026-01-20' },
        422,
        'Parameter `date_from` must not be after `date_to`.',
      ],
      ['a date that does not exist', { date_from: '2023-02-30' }, 422, 'Parameter `date_from` must be a calendar date YYYY-MM-DD.'],
      ['a date in another format', { date_to: '22.01.2026' }, 422, 'Parameter `date_to` must be a calendar date YYYY-MM-DD.'],
      ['an identifier in another format', { identifier: 'ann@example.org' }, 422, 'Identifier is not valid'],
      ['an unknown member', { identifier: '79990000000' }, 404, 'Loyalty program member is not found'],
      ['an unknown subscription', { subscription: 'gold' }, 404, 'Subscription is not found'],
    ])('refuses %s', async (_name, query, code, message) => {
      expectFailure(await orders({ ...credentials(), identifier: PHONE, subscription: 'plus', ...query }), code, message);
    });

    it('refuses a wrong secret', async () => {
      expectFailure(
        await orders({ shop_id: shopId, shop_secret: 'nope', identifier: PHONE, subscription: 'plus' }),
        401,
        'API secret is not correct',
      );
    });
  });

  describe('admin core', () => {
    const plan = (benefits: unknown[], code = 'other') =>
      admin('POST', `/shops/${shopId}/subscriptions/plus/plans`, { code, name: 'Other', period_days: 7, benefits });

    it.each([
      [
        'an integer benefit of 1,000,001',
        [{ code: 'n', name: 'N', data_type: 'integer', value: 1_000_001 }],
        'Field `benefits[0].value` of an integer benefit must be an integer from 0 to 1,000,000.',
      ],
      ['a plan without benefits', [], 'Field `benefits` must hold at least one benefit.'],
      [
        'a promotion that does not exist',
        [{ code: 'p', name: 'P', data_type: 'promos', promotion_ids: [999], savings_limit: 1, usage_limit: 1 }],
        'Field `benefits[0].promotion_ids` names promotion 999, which does not exist.',
      ],
      [
        'a savings limit that is not whole currency units',
        [{ code: 'p', name: 'P', data_type: 'promos', promotion_ids: [1], savings_limit: 10.5, usage_limit: 1 }],
        'Field `benefits[0].savings_limit` must be a whole number of currency units.',
      ],
    ])('refuses %s', async (_name, benefits, message) => {
      const response = await plan(benefits);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
    });

    it('refuses paid_till 2023-02-30 and an unknown plan or member', async () => {
      const subscribe = (body: Body) =>
        admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
          identifier: PHONE,
          plan: 'monthly',
          paid_till: '2026-05-31',
          ...body,
        });
      expect((await subscribe({ paid_till: '2023-02-30' })).json()).toEqual({
        error: { code: 'VALIDATION_FAILED', message: 'Field `paid_till` must be a calendar date YYYY-MM-DD.' },
      });
      expect((await subscribe({ plan: 'yearly' })).statusCode).toBe(422);
      expect((await subscribe({ identifier: '79990000000' })).statusCode).toBe(404);
    });

    it('changes the plan or prolongs with the same call, keeping the period anchor', async () => {
      expect((await plan([{ code: 'b', name: 'B', data_type: 'boolean', value: false }], 'weekly')).statusCode).toBe(201);
      t.clock.set(START + 10 * DAY);
      const changed = await admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
        identifier: OTHER_PHONE,
        plan: 'weekly',
        paid_till: '2026-02-28',
      });
      expect(changed.statusCode).toBe(201);
      const prolonged = await admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
        identifier: OTHER_PHONE,
        plan: 'monthly',
        paid_till: '2026-06-30',
      });
      expect(prolonged.statusCode).toBe(200);
      expect(prolonged.json()).toMatchObject({
        plan: 'monthly',
        paid_till: '2026-06-30',
        started_on: '2026-01-25',
        limits_reset_date: '2026-02-24',
      });
      const list = await admin('GET', `/shops/${shopId}/subscriptions/plus/members?limit=1`);
      expect(list.json()).toMatchObject({ members: [{ identifier: PHONE }], next_after: PHONE });
      const rest = await admin('GET', `/shops/${shopId}/subscriptions/plus/members?after=${PHONE}`);
      expect(rest.json()).toMatchObject({ members: [{ identifier: OTHER_PHONE }], next_after: null });
      expect((await admin('DELETE', `/shops/${shopId}/subscriptions/plus/members/${OTHER_PHONE}`)).statusCode).toBe(204);
      expect((await admin('DELETE', `/shops/${shopId}/subscriptions/plus/members/${OTHER_PHONE}`)).statusCode).toBe(404);
      expectFailure(
        await status({ ...credentials(), identifier: OTHER_PHONE, subscription: 'plus' }),
        404,
        'Loyalty program member is not subscribed to this subscription',
      );
      t.clock.set(START);
    });

    it('moves subscriptions and plans between inactive, active and archived, and lists them', async () => {
      expect((await admin('POST', `/shops/${shopId}/subscriptions`, { code: 'gold', name: 'Gold', status: 'inactive' })).statusCode).toBe(
        201,
      );
      expect((await admin('POST', `/shops/${shopId}/subscriptions`, { code: 'gold', name: 'Gold' })).statusCode).toBe(409);
      expect((await admin('PATCH', `/shops/${shopId}/subscriptions/gold`, { status: 'active' })).json()).toMatchObject({
        status: 'active',
      });
      expect((await admin('PATCH', `/shops/${shopId}/subscriptions/gold`, { status: 'archived' })).json()).toMatchObject({
        status: 'archived',
      });
      expect((await admin('PATCH', `/shops/${shopId}/subscriptions/gold`, { status: 'active' })).statusCode).toBe(409);
      expect(
        (
          await admin('POST', `/shops/${shopId}/subscriptions/gold/members`, {
            identifier: PHONE,
            plan: 'monthly',
            paid_till: '2026-05-31',
          })
        ).statusCode,
      ).toBe(409);
      const listed = await admin('GET', `/shops/${shopId}/subscriptions?status=archived`);
      expect(listed.json<{ subscriptions: Body[] }>().subscriptions.map((s) => s.code)).toEqual(['gold']);
      const patched = await admin('PATCH', `/shops/${shopId}/subscriptions/plus/plans/weekly`, { status: 'inactive', period_days: 14 });
      expect(patched.json()).toMatchObject({ status: 'inactive', period_days: 14 });
      const plans = await admin('GET', `/shops/${shopId}/subscriptions/plus/plans`);
      expect(plans.json<{ plans: Body[] }>().plans.map((p) => [p.code, p.status])).toEqual([
        ['monthly', 'active'],
        ['weekly', 'inactive'],
      ]);
      const monthly = await admin('GET', `/shops/${shopId}/subscriptions/plus/plans/monthly`);
      expect(monthly.json<{ benefits: Body[] }>().benefits[2]).toEqual({
        code: 'sale',
        name: 'Member sale',
        data_type: 'promos',
        promotion_ids: [promotionId],
        savings_limit: 1000,
        usage_limit: 3,
      });
    });
  });
});
