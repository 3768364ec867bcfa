import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { checkoutRequest, line } from '../modules/checkout/checkout-fixture.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('admin checkout order routes', () => {
  let t: TestApp;
  let shopId: string;
  let shop: string;
  const phone = '79061234567';

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    const s = t.app.services;
    const fixture = await createShopFixture(s);
    shopId = fixture.shopId;
    shop = `/admin/v1/shops/${shopId}`;
    await s.loyalty.putSettings(shopId, {
      rewardPercent: 500,
      maxBonusSharePercent: 5000,
      bonusValue: 100,
      bonusLifetimeDays: null,
      rewardPendingDays: 0,
    });
    await s.loyalty.joinMember(shopId, { phone });
    await s.loyalty.creditManual(shopId, phone, { amount: 20_00 });
    for (const [i, orderId] of ['A-1', 'A-2', 'A-3'].entries()) {
      t.clock.set(NOW + i * 1_000);
      await s.checkout.apply(
        fixture.shop,
        checkoutRequest({
          orderId,
          identifier: i === 2 ? null : phone,
          chargeBonuses: i === 0,
          bonusesAmount: i === 0 ? 500 : null,
          cart: [line('P', 100_00)],
        }),
      );
    }
    await s.checkout.confirm(shopId, 'A-1');
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.adminHeaders });

  it('lists orders newest first, filtered by status and member, a page at a time', async () => {
    const all = await get(`${shop}/orders`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json<{ orders: { order_id: string }[] }>().orders.map((o) => o.order_id)).toEqual(['A-3', 'A-2', 'A-1']);
    const completed = (await get(`${shop}/orders?status=completed`)).json<{ orders: unknown[] }>().orders;
    expect(completed).toEqual([
      {
        order_id: 'A-1',
        status: 'completed',
        identifier: phone,
        order_total: 100,
        order_to_pay: 95,
        bonuses_charged: 5,
        bonuses_reward: 4.75,
        subscription: null,
        bonus_hold_id: expect.any(Number),
        reward_transaction_id: expect.any(Number),
        created_at: new Date(NOW).toISOString(),
        updated_at: new Date(NOW + 2_000).toISOString(),
        completed_at: new Date(NOW + 2_000).toISOString(),
        cancelled_at: null,
      },
    ]);
    const member = (await get(`${shop}/orders?identifier=${phone}`)).json<{ orders: { order_id: string }[] }>();
    expect(member.orders.map((o) => o.order_id)).toEqual(['A-2', 'A-1']);
    expect((await get(`${shop}/orders?identifier=79990000000`)).json()).toEqual({ orders: [], next_after: null });
    const first = (await get(`${shop}/orders?limit=2`)).json<{ orders: { order_id: string }[]; next_after: string }>();
    expect(first.orders.map((o) => o.order_id)).toEqual(['A-3', 'A-2']);
    const second = (await get(`${shop}/orders?limit=2&after=${encodeURIComponent(first.next_after)}`)).json<{
      orders: { order_id: string }[];
      next_after: null;
    }>();
    expect(second.orders.map((o) => o.order_id)).toEqual(['A-1']);
    expect(second.next_after).toBeNull();
  });

  it('reads one order with the calculation it stored, and answers 404 for an unknown order or shop', async () => {
    const response = await get(`${shop}/orders/A-1`);
    expect(response.statusCode, response.body).toBe(200);
    const order = response.json<{
      calculation: { order_to_pay: number; items: unknown[] };
      holds: { bonuses: number };
      request: { orderId: string };
    }>();
    expect(order.calculation.order_to_pay).toBe(95);
    expect(order.calculation.items).toHaveLength(1);
    expect(order.holds.bonuses).toBe(5_00);
    expect(order.request.orderId).toBe('A-1');
    expect(expectAdminError(await get(`${shop}/orders/nope`), 404, 'NOT_FOUND')).toBe('Order not found.');
    expectAdminError(await get(`/admin/v1/shops/${'f'.repeat(30)}/orders`), 404, 'NOT_FOUND');
    expectAdminError(await get(`${shop}/orders?status=paid`), 422, 'VALIDATION_FAILED');
    expectAdminError(await get(`${shop}/orders?after=garbage`), 422, 'VALIDATION_FAILED');
  });
});
