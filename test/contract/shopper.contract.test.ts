import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';
import { catalogFeed } from './catalog-fixtures.js';
import { sdkGet } from './sdk-request.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /products/cart, /orders/by_user, /orders/last_for_user and /collection/{id}
 * (issue 12, contract-notes "Secrets and errors"), on both databases: each built from the
 * request the mobile SDK makes (sdk-request.ts) and checked on the fields it reads
 * (rn-sdk types/productTypes.js parseCartItem, types/orderTypes.js parseOrder,
 * types/catalogTypes.js parseCollection), then bad input and credentials.
 *
 * The customer: a device that told its email, bought twice (O-1 on 15 January, O-2 with
 * every trackPurchase field on 17 January, Moscow time) and then put three things in the
 * cart, one of which the feed does not have.
 */

const DAY = 24 * 60 * 60_000;
const JAN_15 = '2026-01-15T12:00:00.000Z';
const JAN_17 = '2026-01-17T12:00:00.000Z';

describe.each(TEST_DIALECTS)('shopper reads on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  let device: { did: string; sid: string };
  let quiet: { did: string; sid: string };
  let otherShop: { shopId: string; secret: string; did: string };
  let inactiveShop: string;

  const inject = (options: InjectOptions) => t.app.inject(options);

  /** POST /push as the SDK's `track` sends it: JSON with shop_id, stream, did, seance and sid. */
  async function track(d: { did: string; sid: string }, params: Record<string, unknown>): Promise<void> {
    const body = { shop_id: shopId, stream: 'android', ...params, did: d.did, seance: d.sid, sid: d.sid };
    const response = await inject({ method: 'POST', url: '/push', payload: body, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const services = t.app.services;
    const shop = await createShopFixture(services, { currency: 'RUB', timezone: 'Europe/Moscow' });
    shopId = shop.shopId;
    secret = shop.secret;
    await importTestFeed(services, shopId, catalogFeed());
    device = await initDevice(t, shopId);
    quiet = await initDevice(t, shopId);

    await track(device, { event: 'view', items: [{ id: 'sku-1' }], email: 'ann@example.org', external_id: 'crm-7' });
    await track(device, {
      event: 'purchase',
      order_id: 'O-1',
      order_price: 12345.67,
      items: [{ id: 'sku-6', amount: 1, price: 12345.67 }],
    });
    t.clock.advance(2 * DAY);
    await track(device, {
      event: 'purchase',
      order_id: 'O-2',
      order_price: 2450.5,
      items: [
        { id: 'sku-1', amount: 2, price: 1000, line_id: 'L1', fashion_size: 'XL' },
        { id: 'ghost', amount: 1, price: 450.5 },
      ],
      delivery_type: 'courier',
      delivery_address: 'Moscow, Tverskaya 1',
      payment_type: 'card',
      tax_free: true,
      promocode: 'SPRING',
      order_cash: 2000,
      order_bonuses: 300.5,
      order_delivery: 150,
      order_discount: 0,
      channel: 'mobile_app',
      custom: { floor: 3, note: 'ring twice' },
    });
    await track(device, {
      event: 'cart',
      items: [{ id: 'sku-2', amount: 3, price: 1990.5 }, { id: 'ghost-2' }, { id: 'sku-5', line_id: 'L9' }],
    });

    const other = await createShopFixture(services);
    await importTestFeed(services, other.shopId, catalogFeed());
    otherShop = { shopId: other.shopId, secret: other.secret, did: (await initDevice(t, other.shopId)).did };
    const inactive = await createShopFixture(services);
    inactiveShop = inactive.shopId;
    await services.shops.updateShop(inactiveShop, { active: false });

    const put = await inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/collections/6`,
      headers: t.adminHeaders,
      payload: { name: 'Summer', product_ids: ['sku-6', 'ghost', 'sku-1', 'sku-2'] },
    });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  function expectError(
    response: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
    status: number,
    message: string,
  ): void {
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status, body: { status: 'error', payload: { message } } });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  }

  describe('GET /products/cart (the SDK’s cart())', () => {
    it('answers the device’s cart in order with the served products, null for one the feed lacks', async () => {
      const response = await inject(sdkGet('/products/cart', { shop_id: shopId }, device));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = response.json<{ status: string; data: { items: Array<Record<string, unknown>> } }>();
      expect(body.status).toBe('success');
      expect(body.data.items.map(({ product: _product, ...line }) => line)).toEqual([
        { uniqid: 'sku-2', quantity: 3, price: 1990.5 },
        { uniqid: 'ghost-2', quantity: 1 },
        { uniqid: 'sku-5', quantity: 1, line_id: 'L9' },
      ]);
      expect(body.data.items.map((line) => line.product)).toEqual([
        expect.objectContaining({ id: 'sku-2', uniqid: 'sku-2', name: 'Runner blue', price: 1990, currency: '₽' }),
        null,
        expect.objectContaining({ id: 'sku-5', name: 'Cap' }),
      ]);
      // Each category of a product also carries `parent`, which the SDK reads.
      const sku2 = body.data.items[0]!.product as { categories: Array<Record<string, unknown>> };
      expect(sku2.categories.map((c) => [c.id, c.parent_id, c.parent])).toEqual([
        ['1', undefined, undefined],
        ['2', '1', '1'],
        ['3', '2', '2'],
      ]);
    });

    it('answers an empty cart for a device that has none', async () => {
      const response = await inject(sdkGet('/products/cart', { shop_id: shopId }, quiet));
      expect(response.json()).toEqual({ status: 'success', data: { items: [] } });
    });

    it.each([
      ['an unknown well-formed did → 404', { shop_id: '{shop}', did: 'Unknown123' }, 404, 'Device not found'],
      ['another shop’s device → 404', { shop_id: '{shop}', did: '{other_did}' }, 404, 'Device not found'],
      ['a malformed did → 422', { shop_id: '{shop}', did: 'INVALID_ID' }, 422, 'Device ID is not valid'],
      ['no did → 401', { shop_id: '{shop}' }, 401, 'Parameter `did` is required.'],
      ['no shop_id → 401', { did: '{did}' }, 401, 'Parameter `shop_id` is required.'],
      ['a malformed shop_id → 422', { shop_id: 'xyz', did: '{did}' }, 422, 'Parameter `shop_id` must be 30 hexadecimal characters.'],
      ['an unknown shop → 404', { shop_id: '0'.repeat(30), did: '{did}' }, 404, 'Shop not found'],
      ['an inactive shop → 403', { shop_id: '{inactive}', did: '{did}' }, 403, 'Shop is not active.'],
    ])('%s', async (_name, params, status, message) => {
      const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, fillIn(v)])).toString();
      expectError(await inject({ method: 'GET', url: `/products/cart?${query}` }), status, message);
    });
  });

  function fillIn(value: string): string {
    return value
      .replace('{shop}', shopId)
      .replace('{did}', device.did)
      .replace('{other_did}', otherShop.did)
      .replace('{inactive}', inactiveShop);
  }

  describe('GET /orders/by_user (the SDK’s getUserOrders({shop_secret, date_from}))', () => {
    const O2 = {
      _id: 2,
      id: 'O-2',
      date: JAN_17,
      value: '2450.5',
      cash_value: '2000.0',
      bonuses_value: '300.5',
      delivery_value: '150.0',
      discount_value: '0.0',
      promocode: 'SPRING',
      internal_status: null,
      order_status: null,
      offline: false,
      stream: 'android',
      channel: 'mobile_app',
      tax_free: true,
      gift_package: false,
      delivery_type: 'courier',
      delivery_address: 'Moscow, Tverskaya 1',
      payment_type: 'card',
      custom_properties: { floor: 3, note: 'ring twice' },
      items: [
        {
          amount: 2,
          price: '1000.0',
          status: null,
          original_price: null,
          barcode: '4600000000011',
          line_id: 'L1',
          fashion_size: 'XL',
          item: expect.objectContaining({ id: 'sku-1', name: 'Runner red', barcode: '4600000000011' }),
        },
        { amount: 1, price: '450.5', status: null, original_price: null, barcode: null, line_id: null, fashion_size: null, item: null },
      ],
    };
    const O1 = {
      _id: 1,
      id: 'O-1',
      date: JAN_15,
      value: '12345.67',
      cash_value: null,
      bonuses_value: null,
      delivery_value: null,
      discount_value: null,
      promocode: null,
      internal_status: null,
      order_status: null,
      offline: false,
      stream: 'android',
      channel: null,
      tax_free: false,
      gift_package: false,
      delivery_type: null,
      delivery_address: null,
      payment_type: null,
      custom_properties: {},
      items: [
        {
          amount: 1,
          price: '12345.67',
          status: null,
          original_price: null,
          barcode: null,
          line_id: null,
          fashion_size: null,
          item: expect.objectContaining({ id: 'sku-6', name: 'Race car' }),
        },
      ],
    };

    it('answers the device’s orders newest first, every tracked field in the SDK’s names', async () => {
      const response = await inject(sdkGet('/orders/by_user', { shop_id: shopId, shop_secret: secret }, device));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'success', data: { orders: [O2, O1] } });
    });

    it('keeps the orders of date_from (the shop’s day) and later', async () => {
      const response = await inject(sdkGet('/orders/by_user', { shop_id: shopId, shop_secret: secret, date_from: '2026-01-17' }, device));
      expect(response.json()).toEqual({ status: 'success', data: { orders: [O2] } });
      const later = await inject(sdkGet('/orders/by_user', { shop_id: shopId, shop_secret: secret, date_from: '2026-01-18' }, device));
      expect(later.json()).toEqual({ status: 'success', data: { orders: [] } });
    });

    it('names the customer by an identifier when one is given, whatever the device', async () => {
      const byEmail = await inject({
        method: 'GET',
        url: `/orders/by_user?shop_id=${shopId}&shop_secret=${secret}&did=${quiet.did}&email=Ann%40Example.org`,
      });
      expect(byEmail.json<{ data: { orders: Array<{ id: string }> } }>().data.orders.map((o) => o.id)).toEqual(['O-2', 'O-1']);
      const byExternalId = await inject(sdkGet('/orders/by_user', { shop_id: shopId, shop_secret: secret, external_id: 'crm-7' }, quiet));
      expect(byExternalId.json<{ data: { orders: unknown[] } }>().data.orders).toHaveLength(2);
    });

    it('answers no orders for a known device that bought nothing', async () => {
      const response = await inject(sdkGet('/orders/by_user', { shop_id: shopId, shop_secret: secret }, quiet));
      expect(response.json()).toEqual({ status: 'success', data: { orders: [] } });
    });

    it.each([
      ['no shop_secret → 401', 'did={did}', 401, 'Invalid secret key'],
      ['a wrong shop_secret → 401', 'shop_secret=wrong&did={did}', 401, 'Invalid secret key'],
      ['another shop’s secret → 401', 'shop_secret={other_secret}&did={did}', 401, 'Invalid secret key'],
      [
        'no identifier → 422',
        'shop_secret={secret}',
        422,
        'At least one of `did`, `email`, `phone`, `loyalty_id`, `external_id`, `telegram_id` is required.',
      ],
      ['an unknown well-formed did → 404', 'shop_secret={secret}&did=Unknown123', 404, 'Device not found'],
      ['another shop’s device → 404', 'shop_secret={secret}&did={other_did}', 404, 'Device not found'],
      ['a malformed did → 422', 'shop_secret={secret}&did=INVALID_ID', 422, 'Device ID is not valid'],
      ['an unknown email → 404', 'shop_secret={secret}&did={did}&email=nobody%40example.org', 404, 'Customer not found'],
      ['a malformed email → 422', 'shop_secret={secret}&email=not-an-email', 422, 'Parameter `email` is not valid.'],
      [
        'a malformed date_from → 422',
        'shop_secret={secret}&did={did}&date_from=17.01.2026',
        422,
        'Parameter `date_from` must be a date as YYYY-MM-DD.',
      ],
      [
        'an impossible date_from → 422',
        'shop_secret={secret}&did={did}&date_from=2026-02-30',
        422,
        'Parameter `date_from` must be a date as YYYY-MM-DD.',
      ],
    ])('%s', async (_name, query, status, message) => {
      const filled = fillIn(query).replace('{secret}', secret).replace('{other_secret}', otherShop.secret);
      expectError(await inject({ method: 'GET', url: `/orders/by_user?shop_id=${shopId}&${filled}` }), status, message);
    });
  });

  describe('GET /orders/last_for_user (the SDK’s getLastOrderProducts())', () => {
    it('answers the served products of the newest order, bare, the one the feed lacks left out', async () => {
      const response = await inject(sdkGet('/orders/last_for_user', { shop_id: shopId }, device));
      expect(response.statusCode, response.body).toBe(200);
      const products = response.json<Array<Record<string, unknown>>>();
      expect(products).toEqual([
        expect.objectContaining({ id: 'sku-1', name: 'Runner red', image_url: 'https://img.shop.example/sku-1.jpg', price: 1990 }),
      ]);
    });

    it('names the customer by external_id too, and answers [] without orders', async () => {
      const byExternalId = await inject({ method: 'GET', url: `/orders/last_for_user?shop_id=${shopId}&external_id=crm-7` });
      expect(byExternalId.json<Array<{ id: string }>>().map((p) => p.id)).toEqual(['sku-1']);
      const none = await inject(sdkGet('/orders/last_for_user', { shop_id: shopId }, quiet));
      expect({ status: none.statusCode, body: none.json() }).toEqual({ status: 200, body: [] });
    });

    it.each([
      ['an unknown well-formed did → 404', 'did=Unknown123', 404, 'Device not found'],
      ['a malformed did → 422', 'did=INVALID_ID', 422, 'Device ID is not valid'],
      ['an unknown external_id → 404', 'external_id=nobody', 404, 'Customer not found'],
      [
        'only an email (not read without the secret) → 422',
        'email=ann%40example.org',
        422,
        'At least one of `did`, `external_id`, `telegram_id` is required.',
      ],
    ])('%s', async (_name, query, status, message) => {
      expectError(await inject({ method: 'GET', url: `/orders/last_for_user?shop_id=${shopId}&${query}` }), status, message);
    });

    it('refuses an unknown shop and a missing shop_id in the status envelope', async () => {
      expectError(
        await inject({ method: 'GET', url: `/orders/last_for_user?shop_id=${'0'.repeat(30)}&did=${device.did}` }),
        404,
        'Shop not found',
      );
      expectError(await inject({ method: 'GET', url: `/orders/last_for_user?did=${device.did}` }), 401, 'Parameter `shop_id` is required.');
    });
  });

  describe('GET /collection/{id} (the SDK’s getCollection(id, {location}))', () => {
    it('answers the collection’s served products in its order, bare under products', async () => {
      const response = await inject(sdkGet('/collection/6', { shop_id: shopId }, device));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ products: Array<Record<string, unknown>> }>();
      expect(Object.keys(body)).toEqual(['products']);
      expect(body.products.map((p) => p.id)).toEqual(['sku-6', 'sku-1', 'sku-2']);
      expect(body.products[0]).toEqual(expect.objectContaining({ name: 'Race car', price: 12345, price_full: 12345.67, currency: '₽' }));
    });

    it('keeps, with a location, the products sold there', async () => {
      const response = await inject(sdkGet('/collection/6', { shop_id: shopId, location: 'msk' }, device));
      expect(response.json<{ products: Array<{ id: string }> }>().products.map((p) => p.id)).toEqual(['sku-1']);
    });

    it.each([
      ['an unknown collection → 404', '/collection/7', 404, 'Collection not found'],
      ['a malformed id → 422', '/collection/a.b', 422, 'Parameter `id` must be 1 to 64 letters, digits, `_` or `-`.'],
    ])('%s', async (_name, path, status, message) => {
      expectError(await inject({ method: 'GET', url: `${path}?shop_id=${shopId}` }), status, message);
    });

    it('never shows another shop’s collection', async () => {
      expectError(await inject({ method: 'GET', url: `/collection/6?shop_id=${otherShop.shopId}` }), 404, 'Collection not found');
    });

    it('answers an unknown shop 404 and a missing shop_id 401', async () => {
      expectError(await inject({ method: 'GET', url: `/collection/6?shop_id=${'0'.repeat(30)}` }), 404, 'Shop not found');
      expectError(await inject({ method: 'GET', url: '/collection/6' }), 401, 'Parameter `shop_id` is required.');
    });
  });

  it('documents each route in the OpenAPI document with its 200 shape and the status envelope for errors', () => {
    const paths = t.app.swagger().paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    for (const path of ['/products/cart', '/orders/by_user', '/orders/last_for_user', '/collection/{id}']) {
      expect(Object.keys(paths[path]?.get?.responses ?? {}), path).toEqual(expect.arrayContaining(['200', '4XX']));
    }
    for (const [path, methods] of [
      ['/admin/v1/shops/{shop_id}/collections', ['get']],
      ['/admin/v1/shops/{shop_id}/collections/{id}', ['put', 'get', 'delete']],
    ] as const) {
      for (const method of methods) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
