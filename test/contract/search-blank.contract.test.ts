import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../helpers/feed-builder.js';
import { FORM_TYPE, send, type ContractRequest, type Json, type Vars } from './harness.js';

/**
 * GET /search/blank (docs/search.md "The empty search box") as the SDKs call it
 * (rn-sdk searchBlank: GET with shop_id, the device and the session in the query string,
 * a form Content-Type) on both databases. Fields asserted are those the SDKs read:
 * suggests[].name, last_queries[].name, products.
 */

const offer = (id: string, name: string, salesRate?: number) => ({
  id,
  available: true,
  url: `https://shop.example/p/${id}`,
  price: '1990',
  currencyId: 'RUB',
  categoryIds: ['1'],
  name,
  ...(salesRate !== undefined && { salesRate }),
});

const FEED: FeedSpec = {
  categories: [{ id: '1', name: 'Обувь' }],
  offers: [offer('run-1', 'Кроссовки беговые', 5), offer('bag-1', 'Сумка спортивная', 9), offer('boot-1', 'Ботинки')],
};

const DAY = 24 * 60 * 60 * 1000;
const DID = 'a1B2c3D4e5';
const OTHER_DID = 'f6G7h8J9k0';

const blank = (query: string): ContractRequest => ({ method: 'GET', url: '/search/blank', query, contentType: FORM_TYPE });

describe.each(TEST_DIALECTS)('GET /search/blank on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;
  const productBodies = new Map<string, Json>();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, FEED);
    vars = { shop: shopId };
    for (const id of ['run-1', 'bag-1', 'boot-1']) {
      productBodies.set(id, (await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shopId}&item_id=${id}` })).json<Json>());
    }
    t.clock.set(Date.UTC(2026, 10, 1));
    const searched: Array<[string, string, string]> = [
      [DID, 'full_search', 'Кроссовки'],
      [OTHER_DID, 'full_search', 'кроссовки'],
      [DID, 'full_search', 'сумка'],
      [DID, 'full_search', 'холодильник'],
      [OTHER_DID, 'full_search', 'холодильник'],
      [OTHER_DID, 'full_search', 'холодильник'],
      [DID, 'instant_search', 'бот'],
      [DID, 'full_search', 'кроссовки'],
    ];
    for (const [did, type, query] of searched) {
      t.clock.advance(1000);
      const response = await t.app.inject({
        method: 'GET',
        url: `/search?shop_id=${shopId}&did=${did}&type=${type}&search_query=${encodeURIComponent(query)}`,
      });
      expect(response.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the popular queries that found something, the device’s last queries and popular products', async () => {
    const response = await send(t, blank(`shop_id={shop}&did=${DID}&seance=Z9y8X7w6V5&sid=Z9y8X7w6V5`), vars);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({
      // The full searches that found something, most frequent first; not the instant search.
      suggests: [
        { name: 'кроссовки', url: null },
        { name: 'сумка', url: null },
      ],
      // The device's distinct submitted queries, newest first, even one that found nothing.
      last_queries: [{ name: 'кроссовки' }, { name: 'холодильник' }, { name: 'сумка' }],
      // The feed's sales rate, then offer id.
      products: ['bag-1', 'run-1', 'boot-1'].map((id) => productBodies.get(id)),
    });
  });

  it('answers no last queries without a device, or for another device', async () => {
    expect((await send(t, blank('shop_id={shop}'), vars)).json()).toMatchObject({ last_queries: [] });
    expect((await send(t, blank('shop_id={shop}&did='), vars)).json()).toMatchObject({ last_queries: [] });
    expect((await send(t, blank(`shop_id={shop}&did=${OTHER_DID}`), vars)).json()).toMatchObject({
      last_queries: [{ name: 'холодильник' }, { name: 'кроссовки' }],
    });
  });

  it('forgets queries older than two weeks', async () => {
    t.clock.advance(15 * DAY);
    expect((await send(t, blank(`shop_id={shop}&did=${DID}`), vars)).json()).toMatchObject({ suggests: [], last_queries: [] });
  });

  it.each([
    ['shop_id absent → 401', 'did=a1B2c3D4e5', 401, 'Parameter `shop_id` is required.'],
    ['shop of no shop → 404', `shop_id=${'0'.repeat(30)}`, 404, 'Shop not found'],
    ['a malformed did → 422', 'shop_id={shop}&did=INVALID_ID', 422, 'Device ID is not valid'],
  ])('%s', async (_name, query, status, message) => {
    const response = await send(t, blank(query), vars);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ status: 'error', payload: { message } });
  });
});
