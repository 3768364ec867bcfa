import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { importTestFeed } from '../../helpers/feed-builder.js';

/**
 * Paid subscriptions in the loyalty checkout (issue 15 part 4; docs/subscriptions.md "In
 * the checkout"): a promos benefit's promotion applies only to an order that names the
 * subscription of a member who has the benefit, within what is left of the period; apply
 * holds the use, confirm counts it, cancel gives it back, all in the checkout's own
 * transaction, and concurrent applies never take more than the period's limit.
 */

const PHONE = '79001234567';
const GUEST_PHONE = '79007654321';
const START = Date.UTC(2026, 0, 15, 9, 0, 0);

type Body = Record<string, unknown>;

describe.each(TEST_DIALECTS)('subscription benefits in the checkout on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(START);
    const shop = await createShopFixture(t.app.services, { timezone: 'Europe/Moscow' });
    shopId = shop.shopId;
    secret = shop.secret;
    await importTestFeed(t.app.services, shopId, {
      offers: [{ id: 'coffee-1', name: 'Coffee beans 1 kg', price: 1000, url: 'https://shop.example/c1' }],
    });
    for (const phone of [PHONE, GUEST_PHONE])
      expect((await admin('POST', `/shops/${shopId}/loyalty/members`, { phone })).statusCode).toBe(201);
    const promotion = await admin('POST', `/shops/${shopId}/promotions`, {
      name: 'Plus sale',
      status: 'active',
      discount: { type: 'percent', value: 10 },
    });
    expect(promotion.statusCode, promotion.body).toBe(201);
    expect((await admin('POST', `/shops/${shopId}/subscriptions`, { code: 'plus', name: 'Plus' })).statusCode).toBe(201);
    const plan = await admin('POST', `/shops/${shopId}/subscriptions/plus/plans`, {
      code: 'monthly',
      name: 'Monthly',
      period_days: 30,
      benefits: [
        {
          code: 'sale',
          name: 'Member sale',
          data_type: 'promos',
          promotion_ids: [promotion.json<{ id: number }>().id],
          savings_limit: 1000,
          usage_limit: 3,
        },
      ],
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const member = await admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
      identifier: PHONE,
      plan: 'monthly',
      paid_till: '2026-03-31',
    });
    expect(member.statusCode, member.body).toBe(201);
  });

  afterAll(async () => {
    await t.close();
  });

  function admin(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Body): Promise<LightMyRequestResponse> {
    return t.app.inject({ method, url: `/admin/v1${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  }
  const checkout = (step: string, body: Body) =>
    t.app.inject({ method: 'POST', url: `/loyalty/checkout/${step}`, payload: { shop_id: shopId, shop_secret: secret, ...body } });
  const cart = [{ product_id: 'coffee-1', price: 1000, quantity: 1 }];
  async function usage(): Promise<Body> {
    const response = await t.app.inject({
      method: 'GET',
      url: '/loyalty/subscriptions/members/status',
      query: { shop_id: shopId, shop_secret: secret, identifier: PHONE, subscription: 'plus' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const benefits = response.json<{ payload: { benefits: { value: Body }[] } }>().payload.benefits;
    const { savings_used, savings_left, usage_used, usage_left } = benefits[0]!.value;
    return { savings_used, savings_left, usage_used, usage_left };
  }
  const toPay = (response: LightMyRequestResponse) => response.json<{ payload: { order_to_pay: number } }>().payload.order_to_pay;

  it('gives a benefit-only promotion to nobody who does not name the subscription', async () => {
    const guest = await checkout('estimate', { identifier: GUEST_PHONE, cart_items: cart, subscription: 'plus' });
    expect(guest.statusCode, guest.body).toBe(200);
    expect(toPay(guest)).toBe(1000);
    const unnamed = await checkout('estimate', { identifier: PHONE, cart_items: cart });
    expect(toPay(unnamed)).toBe(1000);
    const named = await checkout('estimate', { identifier: PHONE, cart_items: cart, subscription: 'plus' });
    expect(toPay(named)).toBe(900);
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
  });

  it('holds a use at apply, keeps it at confirm and gives it back at cancel', async () => {
    const applied = await checkout('apply', { order_id: 'sub-1', identifier: PHONE, cart_items: cart, subscription: 'plus' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(toPay(applied)).toBe(900);
    expect(await usage()).toEqual({ savings_used: 100, savings_left: 900, usage_used: 1, usage_left: 2 });
    // A repeat apply replaces the order's hold rather than adding a second one.
    expect(toPay(await checkout('apply', { order_id: 'sub-1', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    expect(await usage()).toEqual({ savings_used: 100, savings_left: 900, usage_used: 1, usage_left: 2 });
    expect((await checkout('confirm', { order_id: 'sub-1' })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 100, savings_left: 900, usage_used: 1, usage_left: 2 });
    const orders = await t.app.inject({
      method: 'GET',
      url: '/loyalty/subscriptions/orders',
      query: { shop_id: shopId, shop_secret: secret, identifier: PHONE, subscription: 'plus' },
    });
    expect(orders.statusCode, orders.body).toBe(200);
    expect(JSON.stringify(orders.json())).toContain('"id":"sub-1"');
    expect((await checkout('cancel', { order_id: 'sub-1' })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
  });

  it("a repeat apply without the subscription gives the order's hold back", async () => {
    expect(toPay(await checkout('apply', { order_id: 'sub-2', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    expect(await usage()).toMatchObject({ usage_used: 1 });
    expect(toPay(await checkout('apply', { order_id: 'sub-2', identifier: PHONE, cart_items: cart }))).toBe(1000);
    expect(await usage()).toMatchObject({ usage_used: 0, usage_left: 3 });
    expect((await checkout('cancel', { order_id: 'sub-2' })).statusCode).toBe(200);
  });

  it('records on the order the subscription it was computed with, which the admin read and the subscription orders show', async () => {
    const adminOrder = async (id: string) => (await admin('GET', `/shops/${shopId}/orders/${id}`)).json<Body>();
    const subscriptionOrders = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/loyalty/subscriptions/orders',
          query: { shop_id: shopId, shop_secret: secret, identifier: PHONE, subscription: 'plus' },
        })
      )
        .json<{ payload: { orders: Body[] } }>()
        .payload.orders.map((o) => o.id);
    expect(toPay(await checkout('apply', { order_id: 'rec-1', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    expect(await adminOrder('rec-1')).toMatchObject({ order_id: 'rec-1', subscription: 'plus' });
    const listed = (await admin('GET', `/shops/${shopId}/orders?identifier=${PHONE}`)).json<{ orders: Body[] }>().orders;
    expect(listed.find((o) => o.order_id === 'rec-1')).toMatchObject({ subscription: 'plus' });
    expect(await subscriptionOrders()).toContain('rec-1');
    // A member not in the subscription, and a guest, name it: their orders are not the subscription's.
    expect(
      (await checkout('apply', { order_id: 'rec-2', identifier: GUEST_PHONE, cart_items: cart, subscription: 'plus' })).statusCode,
    ).toBe(200);
    expect(await adminOrder('rec-2')).toMatchObject({ subscription: null });
    expect((await checkout('apply', { order_id: 'rec-3', cart_items: cart, subscription: 'plus' })).statusCode).toBe(200);
    expect(await adminOrder('rec-3')).toMatchObject({ identifier: null, subscription: null });
    // Subscribing afterwards does not make the earlier order a subscription order.
    expect(
      (
        await admin('POST', `/shops/${shopId}/subscriptions/plus/members`, {
          identifier: GUEST_PHONE,
          plan: 'monthly',
          paid_till: '2026-03-31',
        })
      ).statusCode,
    ).toBe(201);
    const guestOrders = await t.app.inject({
      method: 'GET',
      url: '/loyalty/subscriptions/orders',
      query: { shop_id: shopId, shop_secret: secret, identifier: GUEST_PHONE, subscription: 'plus' },
    });
    expect(guestOrders.json()).toMatchObject({ success: true, payload: { orders: [] } });
    expect((await admin('DELETE', `/shops/${shopId}/subscriptions/plus/members/${GUEST_PHONE}`)).statusCode).toBe(204);
    // A repeat apply without the subscription writes the column afresh.
    expect(toPay(await checkout('apply', { order_id: 'rec-1', identifier: PHONE, cart_items: cart }))).toBe(1000);
    expect(await adminOrder('rec-1')).toMatchObject({ subscription: null });
    expect(await subscriptionOrders()).not.toContain('rec-1');
    for (const id of ['rec-1', 'rec-2', 'rec-3']) expect((await checkout('cancel', { order_id: id })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
  });

  it('keeps a held order in its period when the period ends before it is confirmed; the new period starts with nothing used', async () => {
    expect(toPay(await checkout('apply', { order_id: 'edge-1', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    expect(toPay(await checkout('apply', { order_id: 'edge-2', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    expect(await usage()).toMatchObject({ usage_used: 2, usage_left: 1 });
    // Midnight in Moscow starting 2026-02-14: the member's second period (started_on 2026-01-15, 30 days).
    t.clock.set(Date.UTC(2026, 1, 13, 21, 0));
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
    expect(toPay(await checkout('apply', { order_id: 'edge-3', identifier: PHONE, cart_items: cart, subscription: 'plus' }))).toBe(900);
    // edge-1 is confirmed and edge-2 cancelled in the new period: both settle in the old one.
    expect((await checkout('confirm', { order_id: 'edge-1' })).statusCode).toBe(200);
    expect((await checkout('cancel', { order_id: 'edge-2' })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 100, savings_left: 900, usage_used: 1, usage_left: 2 });
    expect((await checkout('cancel', { order_id: 'edge-3' })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
    t.clock.set(START);
    // Back in the first period: edge-1 counts there, edge-2 was given back there.
    expect(await usage()).toEqual({ savings_used: 100, savings_left: 900, usage_used: 1, usage_left: 2 });
    expect((await checkout('cancel', { order_id: 'edge-1' })).statusCode).toBe(200);
    expect(await usage()).toEqual({ savings_used: 0, savings_left: 1000, usage_used: 0, usage_left: 3 });
  });

  it('50 concurrent applies against a usage limit of 3: exactly 3 get the benefit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        checkout('apply', { order_id: `race-${i}`, identifier: PHONE, cart_items: cart, subscription: 'plus' }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const paid = answers.map(toPay);
    expect(paid.filter((p) => p === 900)).toHaveLength(3);
    expect(paid.filter((p) => p === 1000)).toHaveLength(47);
    expect(await usage()).toEqual({ savings_used: 300, savings_left: 700, usage_used: 3, usage_left: 0 });
  });
});
