import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';
import { catalogFeed } from './catalog-fixtures.js';
import { fill, FORM_TYPE, type Json, type Vars } from './harness.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * POST /subscriptions/subscribe_for_product_available, …/subscribe_for_product_price and
 * their unsubscribe_from_… pair (issue 4 part 6, docs/catalog-read.md), with the
 * statuses of contract-notes "Secrets and errors", on both databases. Placeholders:
 * {shop}, {did} (a device of the shop), {inactive_shop}, {unknown_shop}.
 */

interface Case {
  readonly name: string;
  readonly path: string;
  readonly body?: Json | string;
  readonly contentType?: string;
  readonly method?: 'GET' | 'POST';
  readonly status: number;
  readonly message?: string;
}

const AVAILABLE = '/subscriptions/subscribe_for_product_available';
const PRICE = '/subscriptions/subscribe_for_product_price';
const UN_AVAILABLE = '/subscriptions/unsubscribe_from_product_available';
const UN_PRICE = '/subscriptions/unsubscribe_from_product_price';

const CASES: readonly Case[] = [
  {
    name: 'available: by did',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', sid: 'abcdefghij', seance: 'abcdefghij', segment: 'A', item_id: 'sku-3' },
    status: 200,
  },
  {
    name: 'available: by email, with the SDK’s properties',
    path: AVAILABLE,
    body: { shop_id: '{shop}', email: 'Ann@Example.com', item_id: 'sku-3', properties: { fashion_size: ['XL'] } },
    status: 200,
  },
  {
    name: 'available: by phone, in a form',
    path: AVAILABLE,
    body: 'shop_id={shop}&phone=%2B7%20(912)%20345-67-89&item_id=sku-3',
    contentType: FORM_TYPE,
    status: 200,
  },
  { name: 'available: `item` is read as item_id', path: AVAILABLE, body: { shop_id: '{shop}', did: '{did}', item: 'sku-3' }, status: 200 },
  {
    name: 'available: a numeric item_id is its text',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 42 },
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'available: no identifier → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', item_id: 'sku-3' },
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'available: empty identifiers → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '', email: '', item_id: 'sku-3' },
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'available: a well-formed did /init never registered → 404',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '0000000000', item_id: 'sku-3' },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'available: an unknown UUID did beside a valid email → 404',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C', email: 'dan@example.com', item_id: 'sku-3' },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'available: malformed did → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: 'INVALID_ID', item_id: 'sku-3' },
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'available: malformed email → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', email: 'not-an-email', item_id: 'sku-3' },
    status: 422,
    message: 'Parameter `email` is not valid.',
  },
  {
    name: 'available: item_id absent → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}' },
    status: 422,
    message: 'Parameter `item_id` is required.',
  },
  {
    name: 'available: item_id empty → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', item_id: '' },
    status: 422,
    message: 'Parameter `item_id` must be a non-empty string.',
  },
  {
    name: 'available: item_id of 256 characters → 422',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'x'.repeat(256) },
    status: 422,
    message: 'Parameter `item_id` must be at most 255 characters.',
  },
  {
    name: 'available: unknown product → 404',
    path: AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'nope' },
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'available: shop_id absent → 401',
    path: AVAILABLE,
    body: { did: '{did}', item_id: 'sku-3' },
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'available: shop_id malformed → 422',
    path: AVAILABLE,
    body: { shop_id: 'abc', did: '{did}', item_id: 'sku-3' },
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'available: unknown shop → 404',
    path: AVAILABLE,
    body: { shop_id: '{unknown_shop}', did: '{did}', item_id: 'sku-3' },
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'available: inactive shop → 403',
    path: AVAILABLE,
    body: { shop_id: '{inactive_shop}', did: '{did}', item_id: 'sku-3' },
    status: 403,
    message: 'Shop is not active.',
  },
  { name: 'available: GET → 405', path: AVAILABLE, method: 'GET', status: 405, message: 'Method GET is not allowed for this endpoint.' },

  {
    name: 'price: with the price seen',
    path: PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'sku-2', price: 1990.5 },
    status: 200,
  },
  {
    name: 'price: a price as text',
    path: PRICE,
    body: 'shop_id={shop}&email=bob@example.com&item_id=sku-2&price=1500.00',
    contentType: FORM_TYPE,
    status: 200,
  },
  {
    name: 'price: without a price, the current one',
    path: PRICE,
    body: { shop_id: '{shop}', email: 'carl@example.com', item_id: 'sku-6' },
    status: 200,
  },
  {
    name: 'price: a negative price → 422',
    path: PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'sku-2', price: -1 },
    status: 422,
    message: 'Parameter `price` must be a non-negative number.',
  },
  {
    name: 'price: a price that is not a number → 422',
    path: PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'sku-2', price: 'cheap' },
    status: 422,
    message: 'Parameter `price` must be a number.',
  },
  {
    name: 'price: no price for a product without one → 422',
    path: PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'sku-4' },
    status: 422,
    message: 'Parameter `price` is required.',
  },
  {
    name: 'price: an unknown did → 404',
    path: PRICE,
    body: { shop_id: '{shop}', did: 'Unknown001', item_id: 'sku-2', price: 1 },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'price: unknown product → 404',
    path: PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_id: 'nope', price: 1 },
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'price: shop_id absent → 401',
    path: PRICE,
    body: { did: '{did}', item_id: 'sku-2', price: 1 },
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },

  {
    name: 'unsubscribe available: some items',
    path: UN_AVAILABLE,
    body: { shop_id: '{shop}', did: '{did}', item_ids: ['sku-1', 'sku-9'] },
    status: 200,
  },
  {
    name: 'unsubscribe available: item_ids as text',
    path: UN_AVAILABLE,
    body: 'shop_id={shop}&did={did}&item_ids=sku-1,sku-9',
    contentType: FORM_TYPE,
    status: 200,
  },
  {
    name: 'unsubscribe available: an unknown did → 404',
    path: UN_AVAILABLE,
    body: { shop_id: '{shop}', did: 'Unknown001', item_ids: ['sku-1'] },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'unsubscribe price: an unknown did → 404',
    path: UN_PRICE,
    body: { shop_id: '{shop}', did: 'Unknown001' },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'unsubscribe price: someone nobody knows',
    path: UN_PRICE,
    body: { shop_id: '{shop}', email: 'nobody@example.com', item_ids: [] },
    status: 200,
  },
  {
    name: 'unsubscribe price: no identifier → 422',
    path: UN_PRICE,
    body: { shop_id: '{shop}', item_ids: [] },
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'unsubscribe price: an item id of an object → 422',
    path: UN_PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_ids: [{ id: 1 }] },
    status: 422,
    message: 'Parameter `item_ids` must be a comma-separated list of ids.',
  },
  {
    name: 'unsubscribe price: 1001 item ids → 422',
    path: UN_PRICE,
    body: { shop_id: '{shop}', did: '{did}', item_ids: Array.from({ length: 1001 }, (_, i) => `i${i}`) },
    status: 422,
    message: 'Parameter `item_ids` must have at most 1000 ids.',
  },
  {
    name: 'unsubscribe price: inactive shop → 403',
    path: UN_PRICE,
    body: { shop_id: '{inactive_shop}', did: '{did}' },
    status: 403,
    message: 'Shop is not active.',
  },
];

describe.each(TEST_DIALECTS)('product subscriptions contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const shop = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shop.shopId, catalogFeed());
    await t.app.services.shops.updateShop(inactive.shopId, { active: false });
    const { did } = await initDevice(t, shop.shopId);
    vars = { shop: shop.shopId, did, inactive_shop: inactive.shopId, unknown_shop: 'c'.repeat(30) };
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: Json | string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': contentType },
      payload: typeof body === 'string' ? fill(body, vars) : JSON.stringify(fill(body, vars)),
    });
  const triggers = async (item: string) =>
    (await t.app.inject({ method: 'GET', url: `/products/counters?shop_id=${vars.shop}&item=${item}` })).json<{
      triggers: { back_in_stock: number; price_drop: number };
    }>().triggers;

  it.each(CASES)('$name', async (row) => {
    const response =
      row.method === 'GET'
        ? await t.app.inject({ method: 'GET', url: `${row.path}?shop_id=${vars.shop}` })
        : await post(row.path, row.body ?? {}, row.contentType);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    if (row.status === 200) expect(response.json()).toEqual({ status: 'success' });
    else expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
  });

  it('registers no device for an unknown did (only GET /init does)', async () => {
    const response = await post(AVAILABLE, { shop_id: vars.shop!, did: 'NeverSeen1', item_id: 'sku-3' });
    expect(response.statusCode).toBe(404);
    expect(await t.app.services.identity.findDevice(vars.shop!, 'NeverSeen1')).toBeUndefined();
  });

  it('counts active subscriptions per product and kind in counters.triggers', async () => {
    const { did } = await initDevice(t, vars.shop!);
    const before = await triggers('sku-5');
    expect(before).toEqual({ back_in_stock: 0, price_drop: 0 });
    expect((await post(AVAILABLE, { shop_id: vars.shop!, did, item_id: 'sku-5' })).statusCode).toBe(200);
    // Subscribing again is one subscription.
    expect((await post(AVAILABLE, { shop_id: vars.shop!, did, item_id: 'sku-5' })).statusCode).toBe(200);
    expect((await post(PRICE, { shop_id: vars.shop!, did, item_id: 'sku-5', price: 90 })).statusCode).toBe(200);
    expect((await post(PRICE, { shop_id: vars.shop!, email: 'dora@example.com', item_id: 'sku-5' })).statusCode).toBe(200);
    expect(await triggers('sku-5')).toEqual({ back_in_stock: 1, price_drop: 2 });

    const v2 = await t.app.inject({ method: 'GET', url: `/products/counters?shop_id=${vars.shop}&item=sku-5&v=2` });
    expect(v2.json()).toMatchObject({ status: 'success', payload: { counters: { triggers: { back_in_stock: 1, price_drop: 2 } } } });

    expect((await post(UN_PRICE, { shop_id: vars.shop!, email: 'DORA@example.com', item_ids: ['sku-5'] })).statusCode).toBe(200);
    expect(await triggers('sku-5')).toEqual({ back_in_stock: 1, price_drop: 1 });
    // No item ids: every product of that kind.
    expect((await post(UN_AVAILABLE, { shop_id: vars.shop!, did })).statusCode).toBe(200);
    expect(await triggers('sku-5')).toEqual({ back_in_stock: 0, price_drop: 1 });
  });

  it('links the device and the email of a subscription to one profile', async () => {
    const { did } = await initDevice(t, vars.shop!);
    expect((await post(AVAILABLE, { shop_id: vars.shop!, did, email: 'eve@example.com', item_id: 'sku-3' })).statusCode).toBe(200);
    const [profile] = await t.app.services.identity.findProfiles(vars.shop!, { email: 'eve@example.com' });
    expect(profile?.devices).toContain(did);
    const subscriptions = await t.app.services.productSubscriptions.listSubscriptions(vars.shop!, profile!.id);
    expect(subscriptions).toEqual([expect.objectContaining({ kind: 'back_in_stock', itemId: 'sku-3', status: 'active', price: null })]);
  });
});
