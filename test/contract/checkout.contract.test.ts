import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMOTION } from '../modules/promotions/fixtures.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';

/**
 * The loyalty checkout on both databases (interface.md endpoints 5 and 6, the Checkout
 * apply result and Order tables, contract-notes "Loyalty checkout" and "Secrets and
 * errors"; docs/checkout.md): every field by name and type on a realistic cart, the Order
 * fields of the history, and every error row, each leaving nothing held.
 */

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const PHONE = '79001234567';

const NUMBER_FIELDS = [
  'order_total',
  'saved_total',
  'saved_by_discounts',
  'saved_by_bonuses',
  'saved_by_offers',
  'saved_by_certificates',
  'order_to_pay',
  'order_bonuses_to_charge',
  'bonuses_balance',
  'bonuses_reward',
  'bonuses_referrer_reward',
];
const ITEM_NUMBERS = [
  'quantity',
  'price',
  'total',
  ...['paid_with_offers', 'paid_with_referral_discounts', 'paid_with_discounts', 'paid_with_bonuses', 'paid_with_certificates'].flatMap(
    (f) => [f, `${f}_per_product`],
  ),
  'bonuses_reward',
  'bonuses_reward_per_product',
  'bonuses_used',
  'bonuses_used_per_product',
  'total_after_discounts',
  'total_after_discounts_per_product',
];

/** What the tests read of the answers; the assertions check the rest by name. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface ResultBody {
  status: string;
  payload: Json & { items: Json[]; order_to_pay: number };
}
interface HistoryBody {
  payload: { orders: (Json & { items: Json[] })[] };
}

function expectPart(value: unknown) {
  expect(value).toEqual({ total: expect.any(Number), per_product: expect.any(Number) });
}

describe.each(TEST_DIALECTS)('loyalty checkout contract on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  let other: { shopId: string; secret: string };
  let inactive: { shopId: string; secret: string };
  let promotionIds: number[];

  const cart = [
    { product_id: 'coffee-1', price: 500, quantity: 2 },
    { product_id: 'coffee-2', price: 420.5, quantity: 1 },
    { product_id: 'tea-1', price: 150, quantity: 3 },
    { product_id: 'mug-1', price: 99.99, quantity: 3 },
    { product_id: 'mug-2', price: 120, quantity: 1 },
    { product_id: 'kettle', price: 2500, quantity: 1, bonusable: false },
    { product_id: 'spoon', price: 10.1, quantity: 6 },
    { product_id: 'filter', price: 35, quantity: 4 },
    { product_id: 'wrap', price: 50, quantity: 1, discountable: false, bonusable: false, rewardable: false },
    { product_id: 'unknown-x', price: 30, quantity: 1 },
  ];
  const body = (extra: Record<string, unknown> = {}) => ({
    shop_id: shopId,
    shop_secret: secret,
    identifier: PHONE,
    payment_type: 'card',
    stream: 'web',
    current_time: '15:00',
    promo_codes: ['spring', 'NOPE'],
    certificates: ['gift', 'MISSING'],
    charge_bonuses: true,
    bonuses_amount: 60,
    cart_items: cart,
    ...extra,
  });
  const post = (path: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/loyalty/checkout/${path}`, payload });
  const history = (query: Record<string, string>) => t.app.inject({ method: 'GET', url: '/loyalty/checkout/history', query });
  async function held() {
    const s = t.app.services;
    const member = await s.loyalty.viewMember(shopId, PHONE);
    const code = await s.promoCodes.getCode(shopId, 'SPRING');
    const gift = await s.certificates.getCertificate(shopId, 'GIFT');
    return { bonuses: member.balance, blocked: code.blocked, used: code.used, giftHeld: gift.held, giftBalance: gift.balance };
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
    const s = t.app.services;
    const shop = await createShopFixture(s);
    shopId = shop.shopId;
    secret = shop.secret;
    other = await createShopFixture(s);
    inactive = await createShopFixture(s);
    await s.shops.updateShop(inactive.shopId, { active: false });
    await importTestFeed(s, shopId, {
      categories: [
        { id: 'food', name: 'Food' },
        { id: 'coffee', name: 'Coffee', parentId: 'food' },
        { id: 'tea', name: 'Tea', parentId: 'food' },
        { id: 'kitchen', name: 'Kitchen' },
      ],
      offers: [
        ['coffee-1', 'Coffee beans 1 kg', 'coffee'],
        ['coffee-2', 'Coffee beans 500 g', 'coffee'],
        ['tea-1', 'Green tea', 'tea'],
        ['mug-1', 'Mug', 'kitchen'],
        ['mug-2', 'Large mug', 'kitchen'],
        ['kettle', 'Kettle', 'kitchen'],
        ['spoon', 'Spoon', 'kitchen'],
        ['filter', 'Paper filters', 'coffee'],
        ['wrap', 'Gift wrap', 'kitchen'],
      ].map(([id, name, category]) => ({ id, name, price: 1, url: `https://shop.example/${id}`, categoryIds: [category!] })),
    });
    await s.loyalty.putSettings(shopId, {
      rewardPercent: 500,
      maxBonusSharePercent: 5000,
      bonusValue: 100,
      bonusLifetimeDays: null,
      rewardPendingDays: 0,
    });
    await s.loyaltyReferrals.putProgram(shopId, { enabled: true, referrerReward: { type: 'fixed', value: 50_00 } });
    const referrer = await s.loyalty.joinMember(shopId, { phone: '79007654321' });
    const { code } = await s.loyaltyReferrals.memberReferral(shopId, referrer.identifier);
    await s.loyaltyReferrals.joinWithReferrer(shopId, { phone: PHONE }, code);
    await s.loyalty.creditManual(shopId, PHONE, { amount: 200_00 });
    const food = await s.promotions.createPromotion(shopId, { ...PROMOTION, name: 'Food 10%', priority: 10, categoryIds: ['food'] });
    const byCode = await s.promotions.createPromotion(shopId, {
      ...PROMOTION,
      name: 'Spring',
      byPromoCode: true,
      discount: { type: 'fixed', value: 100_00 },
    });
    const kitchen = await s.promotions.createPromotion(shopId, {
      ...PROMOTION,
      name: 'Kitchen reward',
      categoryIds: ['kitchen'],
      discount: { type: 'percent', value: 0 },
      bonusRewardPercent: 200,
    });
    promotionIds = [food.id, byCode.id, kitchen.id];
    await s.promoCodes.createCode(shopId, 'SPRING', byCode.id, { usageLimit: 5 });
    await s.certificates.createCertificate(shopId, { code: 'GIFT', amount: 50_00 });
  });

  afterAll(async () => {
    await t.close();
  });

  it('documents at /docs exactly the fields the answer has, on the result and on each line', async () => {
    // An estimate: the same answer as apply's, and it holds nothing the next tests would see.
    const response = await post('estimate', body());
    expect(response.statusCode, response.body).toBe(200);
    const { payload } = response.json<ResultBody>();
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<Json>();
    for (const route of ['estimate', 'apply', 'confirm']) {
      const documented = doc.paths[`/loyalty/checkout/${route}`].post.responses['200'].content['application/json'].schema;
      const result = (documented.properties.payload.anyOf as Json[]).find((branch) => branch.properties?.items !== undefined)!;
      expect(Object.keys(result.properties).sort(), route).toEqual(Object.keys(payload).sort());
      expect(Object.keys(result.properties.items.items.properties).sort(), route).toEqual(Object.keys(payload.items[0]!).sort());
    }
  });

  it('answers apply with every field of the Checkout apply result, by name and type', async () => {
    const response = await post('apply', body({ order_id: 'C-1' }));
    expect(response.statusCode, response.body).toBe(200);
    const { status, payload } = response.json<ResultBody>();
    expect(status).toBe('success');
    expect(payload.order_id).toBe('C-1');
    expect(payload.identifier).toBe(PHONE);
    expect(payload.payment_type).toBe('card');
    expect(Number.isInteger(payload.products_total)).toBe(true);
    expect(payload.products_total).toBe(23);
    for (const field of NUMBER_FIELDS) expect(typeof payload[field], field).toBe('number');
    expect(payload.order_total).toBe(5071.07);
    expect(payload.saved_by_bonuses).toBe(60);
    expect(payload.saved_by_certificates).toBe(50);
    expect(payload.bonuses_balance).toBe(200);
    expect(payload.bonuses_referrer_reward).toBe(50);
    expect(payload.referrer_identifier).toBe('79007654321');
    expect(Number.isInteger(payload.referral_program)).toBe(true);
    expect(payload.applied_promotions).toEqual(promotionIds);
    expect(payload.rewarded_stickers).toEqual({});
    expect(payload.used_stickers).toEqual({});
    expect(payload.stickers_balance).toEqual({});
    expect(payload.promo_codes).toEqual(['SPRING']);
    expect(payload.promo_codes_failed).toEqual([{ code: 'NOPE', message: 'Promo code is not found' }]);
    expect(payload.certificates).toEqual(['GIFT']);
    expect(payload.certificates_failed).toEqual([{ code: 'MISSING', message: 'Certificate is not found' }]);
    expect(payload.saved_total).toBeCloseTo(payload.saved_by_offers + payload.saved_by_bonuses + payload.saved_by_certificates, 2);
    expect(payload.order_to_pay).toBeCloseTo(payload.order_total - payload.saved_total, 2);

    expect(payload.items).toHaveLength(10);
    for (const [i, item] of payload.items.entries()) {
      expect(item.uniqid).toBe(cart[i]!.product_id);
      expect(item.product_id).toBe(cart[i]!.product_id);
      for (const field of ITEM_NUMBERS) expect(typeof item[field], field).toBe('number');
      for (const field of ['discountable', 'bonusable', 'rewardable']) expect(typeof item[field], field).toBe('boolean');
      expectPart(item.bonuses_reward_loyalty_program);
      expectPart(item.bonuses_reward_referral_program);
      for (const part of Object.values(item.bonuses_reward_promotions)) expectPart(part);
      for (const certificate of Object.values(item.certificates)) {
        expect(certificate).toEqual({
          id: expect.any(Number),
          code: 'GIFT',
          pool_id: null,
          amount: expect.any(Number),
          amount_per_product: expect.any(Number),
        });
      }
    }
    const byId: Json = Object.fromEntries(payload.items.map((it) => [it.product_id as string, it]));
    expect(byId['coffee-1'].name).toBe('Coffee beans 1 kg');
    expect(byId['unknown-x'].name).toBe('---');
    expect(byId['coffee-1'].paid_with_offers).toBeGreaterThan(0);
    expect(byId.wrap.paid_with_offers).toBe(0);
    expect(byId.kettle.paid_with_bonuses).toBe(0);
    expect(Object.keys(byId['mug-1'].bonuses_reward_promotions)).toEqual([String(promotionIds[2])]);
    expect(await held()).toMatchObject({ bonuses: 140_00, blocked: 1, giftHeld: 50_00 });
  });

  it('answers referral_program as an Integer, 0, when there is no referral (a guest, a member nobody referred)', async () => {
    await t.app.services.loyalty.joinMember(shopId, { phone: '79001110000' });
    const plain = { shop_id: shopId, shop_secret: secret, cart_items: [{ product_id: 'tea-1', price: 150, quantity: 1 }] };
    for (const request of [plain, { ...plain, identifier: '79001110000' }]) {
      const response = await post('estimate', request);
      expect(response.statusCode, response.body).toBe(200);
      const { payload } = response.json<ResultBody>();
      expect(payload.referral_program).toBe(0);
      expect(payload.bonuses_referrer_reward).toBe(0);
    }
  });

  it('answers estimate with the same result and holds nothing more', async () => {
    const before = await held();
    const estimate = (await post('estimate', body())).json();
    const again = (await post('estimate', body({ order_id: 'C-1' }))).json();
    expect(estimate.status).toBe('success');
    expect(estimate.payload.order_id).toBe('');
    // The member's 60 bonuses held by C-1 are not spendable by another order.
    expect(estimate.payload.bonuses_balance).toBe(140);
    expect(again.payload.items).toEqual(estimate.payload.items);
    expect(await held()).toEqual(before);
  });

  it('confirms with the same result, once, and lists the order with the Order fields', async () => {
    const applied = (await post('apply', body({ order_id: 'C-1' }))).json<ResultBody>();
    const first = await post('confirm', { shop_id: shopId, shop_secret: secret, order_id: 'C-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(applied);
    expect((await post('confirm', { shop_id: shopId, shop_secret: secret, order_id: 'C-1' })).json()).toEqual(applied);

    const response = await history({ shop_id: shopId, shop_secret: secret, identifier: PHONE });
    expect(response.statusCode, response.body).toBe(200);
    const order = response.json<HistoryBody>().payload.orders[0]!;
    expect(Object.keys(order).sort()).toEqual(['date', 'id', 'items', 'status', 'total']);
    expect(order).toMatchObject({ id: 'C-1', status: 'completed', total: applied.payload.order_to_pay.toFixed(2) });
    expect(typeof order.date).toBe('string');
    expect(order.items).toHaveLength(10);
    for (const [i, item] of order.items.entries()) {
      expect(Object.keys(item).sort()).toEqual(['id', 'name', 'price', 'quantity']);
      expect(item).toMatchObject({
        id: cart[i]!.product_id,
        quantity: cart[i]!.quantity,
        price: applied.payload.items[i]?.total_after_discounts_per_product as number,
      });
    }
  });

  it('cancels a completed order: the charge refunded, the certificate restored, the code given back', async () => {
    const response = await post('cancel', { shop_id: shopId, shop_secret: secret, order_id: 'C-1' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'success', payload: { order_id: 'C-1', status: 'cancelled' } });
    expect(await held()).toEqual({ bonuses: 200_00, blocked: 0, used: 0, giftHeld: 0, giftBalance: 50_00 });
    const orders = (await history({ shop_id: shopId, shop_secret: secret, identifier: PHONE })).json<HistoryBody>().payload.orders;
    expect(orders.map((o) => o.status as string)).toEqual(['cancelled']);
  });

  it('answers two lines of one product with 200, the message and the identifier', async () => {
    const response = await post('apply', body({ order_id: 'D-1', cart_items: [cart[0], cart[1], { ...cart[0], quantity: 5 }] }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      payload: { message: 'Cart contains line items with the same product ID', identifier: PHONE },
    });
    const estimate = await post('estimate', body({ cart_items: [cart[0], cart[0]] }));
    expect(estimate.json().payload.message).toBe('Cart contains line items with the same product ID');
  });

  const wide = 'x'.repeat(10_000);
  it.each([
    ['no shop_id', () => ({ ...body({ order_id: 'E-1' }), shop_id: undefined }), 401, 'Parameter `shop_id` is required.'],
    [
      'a malformed shop_id',
      () => body({ order_id: 'E-1', shop_id: 'nope' }),
      422,
      'Parameter `shop_id` must be 30 hexadecimal characters.',
    ],
    ['an unknown shop', () => body({ order_id: 'E-1', shop_id: 'f'.repeat(30) }), 404, 'Shop not found'],
    ['a wrong secret', () => body({ order_id: 'E-1', shop_secret: 'wrong' }), 401, 'Invalid secret key'],
    ['no secret', () => ({ ...body({ order_id: 'E-1' }), shop_secret: undefined }), 401, 'Invalid secret key'],
    [
      'an inactive shop',
      () => body({ order_id: 'E-1', shop_id: inactive.shopId, shop_secret: inactive.secret }),
      403,
      'Shop is not active.',
    ],
    ['no order_id', () => body(), 422, 'Parameter `order_id` is required.'],
    ['an empty cart', () => body({ order_id: 'E-1', cart_items: [] }), 422, 'Parameter `cart_items` must not be empty.'],
    [
      'a price of 0',
      () => body({ order_id: 'E-1', cart_items: [{ product_id: 'a', price: 0, quantity: 1 }] }),
      422,
      'Parameter `cart_items[0][price]` must be greater than 0.',
    ],
    [
      'a negative quantity',
      () => body({ order_id: 'E-1', cart_items: [{ product_id: 'a', price: 1, quantity: -1 }] }),
      422,
      'Parameter `cart_items[0][quantity]` must be an integer from 1 to 1000000.',
    ],
    [
      '10,000 lines',
      () =>
        body({ order_id: 'E-1', cart_items: Array.from({ length: 10_000 }, (_, i) => ({ product_id: `p${i}`, price: 1, quantity: 1 })) }),
      422,
      'Parameter `cart_items` must have at most 1000 lines.',
    ],
    [
      'a promo code of 10,000 characters',
      () => body({ order_id: 'E-1', promo_codes: [wide] }),
      422,
      'Parameter `promo_codes[]` must be at most 64 characters.',
    ],
    [
      'current_time 25:99',
      () => body({ order_id: 'E-1', current_time: '25:99' }),
      422,
      'Parameter `current_time` must be a time HH:MM on a 24-hour clock.',
    ],
    [
      'a negative bonuses_amount',
      () => body({ order_id: 'E-1', bonuses_amount: -5 }),
      422,
      'Parameter `bonuses_amount` must be an integer from 0 to 1000000000.',
    ],
    [
      'bonuses_amount above the balance',
      () => body({ order_id: 'E-1', bonuses_amount: 201 }),
      409,
      "Parameter `bonuses_amount` is above the member's balance of 200.00 bonuses.",
    ],
    [
      'charge_bonuses without an identifier',
      () => ({ ...body({ order_id: 'E-1' }), identifier: undefined }),
      422,
      'Parameter `identifier` is required to charge bonuses.',
    ],
    [
      'charge_bonuses for an unknown member',
      () => body({ order_id: 'E-1', identifier: '79990000000' }),
      404,
      'Loyalty program member is not found',
    ],
    [
      'an order_id of 256 characters',
      () => body({ order_id: 'o'.repeat(256) }),
      422,
      'Parameter `order_id` must be at most 255 characters.',
    ],
  ])('refuses apply with %s, holding nothing', async (_name, make, statusCode, message) => {
    const before = await held();
    const response = await post('apply', make());
    expect(response.statusCode, response.body).toBe(statusCode);
    expect(response.json()).toEqual({ status: 'error', payload: { message } });
    expect(await held()).toEqual(before);
    await expect(t.app.services.checkout.getOrder(shopId, 'E-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses confirm and cancel of an unknown order, of another shop’s order, and of a cancelled one', async () => {
    await post('apply', body({ order_id: 'F-1', charge_bonuses: false, promo_codes: [], certificates: [] }));
    const ask = (path: string, shop: { shopId: string; secret: string }, orderId: string) =>
      post(path, { shop_id: shop.shopId, shop_secret: shop.secret, order_id: orderId });
    for (const path of ['confirm', 'cancel']) {
      for (const [shop, orderId] of [
        [{ shopId, secret }, 'no-such-order'],
        [other, 'F-1'],
      ] as const) {
        const response = await ask(path, shop, orderId);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ status: 'error', payload: { message: 'Order is not found' } });
      }
    }
    expect((await ask('cancel', { shopId, secret }, 'F-1')).statusCode).toBe(200);
    const confirm = await ask('confirm', { shopId, secret }, 'F-1');
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({ status: 'error', payload: { message: 'Could not confirm order in its current status' } });
    const cancel = await ask('cancel', { shopId, secret }, 'F-1');
    expect(cancel.json()).toEqual({ status: 'error', payload: { message: 'Could not cancel order in its current status' } });
    const apply = await post('apply', body({ order_id: 'F-1' }));
    expect(apply.statusCode).toBe(409);
    expect(apply.json()).toEqual({ status: 'error', payload: { message: 'Could not apply order in its current status' } });
    expect((await ask('confirm', { shopId, secret }, '')).statusCode).toBe(422);
  });

  it('refuses the history of an unknown member, and without an identifier or secret', async () => {
    const unknown = await history({ shop_id: shopId, shop_secret: secret, identifier: '79990000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: 'error', payload: { message: 'Loyalty program member is not found' } });
    const missing = await history({ shop_id: shopId, shop_secret: secret });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ status: 'error', payload: { message: 'Parameter `identifier` is required.' } });
    const noSecret = await history({ shop_id: shopId, identifier: PHONE });
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.json()).toEqual({ status: 'error', payload: { message: 'Invalid secret key' } });
  });
});
