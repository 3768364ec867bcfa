import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../helpers/feed-builder.js';
import { FORM_TYPE, send, type ContractRequest, type Json, type Vars } from './harness.js';

/**
 * GET /search and GET /search/no_result_queries (interface.md endpoint 12, "Versioning";
 * contract-notes "Secrets and errors"; our decisions in docs/search.md) as data, on both
 * databases, over a catalog imported through the feed import. Placeholders: {shop} (the
 * catalog below), {other_shop} (a catalog of its own), {inactive_shop}, {unknown_shop},
 * {secret}.
 */

const offer = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  available: true,
  url: `https://shop.example/p/${id}`,
  price: '1990',
  currencyId: 'RUB',
  categoryIds: ['2'],
  name,
  ...extra,
});

const FEED: FeedSpec = {
  categories: [
    { id: '1', name: 'Обувь', url: 'https://shop.example/c/shoes' },
    { id: '2', name: 'Кроссовки', parentId: '1', url: 'https://shop.example/c/sneakers' },
  ],
  offers: [
    offer('run-1', 'Кроссовки беговые Nike Pegasus 40', { vendor: 'Nike', model: 'Pegasus 40', vendorCode: 'DV3853-001' }),
    offer('run-2', 'Кроссовки Adidas Ultraboost', { vendor: 'Adidas', oldprice: '2490' }),
    offer('bag-1', 'Сумка спортивная', { vendor: 'Nike' }),
    offer('hidden-1', 'Кроссовки без цены', { price: undefined }),
    offer('ignored-1', 'Кроссовки скрытые', { ignored: true }),
    offer('gone-1', 'Кроссовки распроданные', { available: false }),
  ],
};

const OTHER_FEED: FeedSpec = {
  categories: [{ id: '1', name: 'Обувь', url: 'https://other.example/c/shoes' }],
  offers: [offer('x-1', 'Кроссовки чужие', { categoryIds: ['1'], url: 'https://other.example/p/x-1' })],
};

interface SearchCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  /** 200: the search_query echoed, the total and the offer ids returned, in order. */
  readonly found?: { readonly query: string; readonly total: number; readonly ids: readonly string[] };
  readonly message?: string;
}

const get = (query: string): ContractRequest => ({ method: 'GET', url: '/search', query });
const LONG = 'я'.repeat(10_000);

const CASES: readonly SearchCase[] = [
  // matching
  {
    name: 'full_search: every word → the products having them',
    request: get('shop_id={shop}&type=full_search&search_query=nike%20кроссовки'),
    status: 200,
    found: { query: 'nike кроссовки', total: 1, ids: ['run-1'] },
  },
  {
    name: 'full_search by a vendor → its products, a match in the name first',
    request: get('shop_id={shop}&type=full_search&search_query=NIKE'),
    status: 200,
    found: { query: 'NIKE', total: 2, ids: ['run-1', 'bag-1'] },
  },
  {
    name: 'full_search by a vendor code',
    request: get('shop_id={shop}&type=full_search&search_query=dv3853-001'),
    status: 200,
    found: { query: 'dv3853-001', total: 1, ids: ['run-1'] },
  },
  {
    name: 'full_search: a half word finds nothing',
    request: get('shop_id={shop}&type=full_search&search_query=кросс'),
    status: 200,
    found: { query: 'кросс', total: 0, ids: [] },
  },
  {
    name: 'instant_search: the last word is a prefix; the shorter name ranks first',
    request: get('shop_id={shop}&type=instant_search&search_query=кросс'),
    status: 200,
    found: { query: 'кросс', total: 2, ids: ['run-2', 'run-1'] },
  },
  {
    name: 'instant_search: two words, the last one unfinished',
    request: get('shop_id={shop}&type=instant_search&search_query=Кроссовки%20ultra'),
    status: 200,
    found: { query: 'Кроссовки ultra', total: 1, ids: ['run-2'] },
  },
  {
    name: 'limit bounds the products, not the total',
    request: get('shop_id={shop}&type=instant_search&search_query=кросс&limit=1'),
    status: 200,
    found: { query: 'кросс', total: 2, ids: ['run-2'] },
  },
  {
    name: 'no match → an empty list',
    request: get('shop_id={shop}&type=full_search&search_query=холодильник'),
    status: 200,
    found: { query: 'холодильник', total: 0, ids: [] },
  },
  {
    name: 'another shop’s catalog is searched apart',
    request: get('shop_id={other_shop}&type=full_search&search_query=кроссовки'),
    status: 200,
    found: { query: 'кроссовки', total: 1, ids: ['x-1'] },
  },
  {
    name: 'a query of 1,000 characters is served',
    request: get(`shop_id={shop}&type=full_search&search_query=${'я'.repeat(1000)}`),
    status: 200,
    found: { query: 'я'.repeat(1000), total: 0, ids: [] },
  },
  {
    name: 'did and sid attribute the query',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&did=a1B2c3D4e5&sid=Z9y8X7w6V5'),
    status: 200,
    found: { query: 'сумка', total: 1, ids: ['bag-1'] },
  },
  {
    name: 'seance is the alias of sid',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&seance=Z9y8X7w6V5'),
    status: 200,
    found: { query: 'сумка', total: 1, ids: ['bag-1'] },
  },
  {
    name: 'an empty did is absent',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&did='),
    status: 200,
    found: { query: 'сумка', total: 1, ids: ['bag-1'] },
  },
  {
    name: 'an empty form body on GET does not fail',
    request: { ...get('shop_id={shop}&type=full_search&search_query=сумка'), contentType: FORM_TYPE },
    status: 200,
    found: { query: 'сумка', total: 1, ids: ['bag-1'] },
  },
  // bad input
  {
    name: 'search_query of 10,000 characters → 422',
    request: get(`shop_id={shop}&type=full_search&search_query=${LONG}`),
    status: 422,
    message: 'Parameter `search_query` must be at most 1000 characters.',
  },
  {
    name: 'search_query absent → 422',
    request: get('shop_id={shop}&type=full_search'),
    status: 422,
    message: 'Parameter `search_query` is required.',
  },
  {
    name: 'search_query empty → 422',
    request: get('shop_id={shop}&type=full_search&search_query='),
    status: 422,
    message: 'Parameter `search_query` must be a non-empty string.',
  },
  {
    name: 'search_query blank → 422',
    request: get('shop_id={shop}&type=full_search&search_query=%20%20%09'),
    status: 422,
    message: 'Parameter `search_query` must be a non-empty string.',
  },
  {
    name: 'search_query as a list → 422',
    request: get('shop_id={shop}&type=full_search&search_query[]=a'),
    status: 422,
    message: 'Parameter `search_query` must be a non-empty string.',
  },
  { name: 'type absent → 422', request: get('shop_id={shop}&search_query=сумка'), status: 422, message: 'Parameter `type` is required.' },
  {
    name: 'type unknown → 422',
    request: get('shop_id={shop}&type=fuzzy&search_query=сумка'),
    status: 422,
    message: 'Parameter `type` must be one of `full_search`, `instant_search`.',
  },
  {
    name: 'type in capitals → 422',
    request: get('shop_id={shop}&type=FULL_SEARCH&search_query=сумка'),
    status: 422,
    message: 'Parameter `type` must be one of `full_search`, `instant_search`.',
  },
  {
    name: 'limit 0 → 422',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&limit=0'),
    status: 422,
    message: 'Parameter `limit` must be an integer from 1 to 100.',
  },
  {
    name: 'limit 101 → 422',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&limit=101'),
    status: 422,
    message: 'Parameter `limit` must be an integer from 1 to 100.',
  },
  {
    name: 'a malformed did → 422',
    request: get('shop_id={shop}&type=full_search&search_query=сумка&did=INVALID_ID'),
    status: 422,
    message: 'Device ID is not valid',
  },
  // credentials
  {
    name: 'shop_id absent → 401',
    request: get('type=full_search&search_query=сумка'),
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'shop_id malformed → 422',
    request: get('shop_id=abc&type=full_search&search_query=сумка'),
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'shop_id of no shop → 404',
    request: get('shop_id={unknown_shop}&type=full_search&search_query=сумка'),
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'a shop that is not active → 403',
    request: get('shop_id={inactive_shop}&type=full_search&search_query=сумка'),
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'credentials are checked before parameters',
    request: get('type=bogus'),
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'POST → 405',
    request: { method: 'POST', url: '/search', body: { shop_id: '{shop}', type: 'full_search', search_query: 'a' } },
    status: 405,
    message: 'Method POST is not allowed for this endpoint.',
  },
];

interface NoResultCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  readonly body?: Json;
  readonly message?: string;
}

const noResults = (query: string, headers?: Record<string, string>): ContractRequest & { headers?: Record<string, string> } => ({
  method: 'GET',
  url: '/search/no_result_queries',
  query,
  ...(headers && { headers }),
});
const LIST: Json = [
  { query: 'холодильник', quantity: 2 },
  { query: 'кросс', quantity: 1 },
];

const NO_RESULT_CASES: readonly NoResultCase[] = [
  { name: 'bare array, most frequent first', request: noResults('shop_id={shop}&shop_secret={secret}'), status: 200, body: LIST },
  {
    name: 'v=2 → the status envelope',
    request: noResults('shop_id={shop}&shop_secret={secret}&v=2'),
    status: 200,
    body: { status: 'success', payload: { no_result_queries: LIST } },
  },
  { name: 'v=1 → bare', request: noResults('shop_id={shop}&shop_secret={secret}&v=1'), status: 200, body: LIST },
  { name: 'another shop has its own list', request: noResults('shop_id={other_shop}&shop_secret={other_secret}'), status: 200, body: [] },
  { name: 'shop_secret absent → 401', request: noResults('shop_id={shop}'), status: 401, message: 'Invalid secret key' },
  { name: 'shop_secret wrong → 401', request: noResults('shop_id={shop}&shop_secret=wrong'), status: 401, message: 'Invalid secret key' },
  {
    name: 'another shop’s secret → 401',
    request: noResults('shop_id={shop}&shop_secret={other_secret}'),
    status: 401,
    message: 'Invalid secret key',
  },
  { name: 'shop_id absent → 401', request: noResults('shop_secret={secret}'), status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'shop_id of no shop → 404',
    request: noResults('shop_id={unknown_shop}&shop_secret={secret}'),
    status: 404,
    message: 'Shop not found',
  },
];

describe.each(TEST_DIALECTS)('search contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;
  /** GET /products/get answers by offer id: search results spell a product the same way. */
  const productBodies = new Map<string, Json>();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const services = t.app.services;
    const shop = await createShopFixture(services);
    const other = await createShopFixture(services);
    const inactive = await createShopFixture(services);
    await importTestFeed(services, shop.shopId, FEED);
    await importTestFeed(services, other.shopId, OTHER_FEED);
    await importTestFeed(services, inactive.shopId, FEED);
    await services.shops.updateShop(inactive.shopId, { active: false });
    vars = {
      shop: shop.shopId,
      secret: shop.secret,
      other_shop: other.shopId,
      other_secret: other.secret,
      inactive_shop: inactive.shopId,
      unknown_shop: '0'.repeat(30),
    };
    for (const [shopId, id] of [...['run-1', 'run-2', 'bag-1'].map((id) => [shop.shopId, id]), [other.shopId, 'x-1']] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shopId}&item_id=${id}` });
      expect(response.statusCode).toBe(200);
      productBodies.set(id, response.json<Json>());
    }
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /search', () => {
    it.each(CASES)('$name', async (row) => {
      const response = await send(t, row.request, vars);
      expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      if (row.status === 200) {
        // The filters and facets have their own contract (listing.contract.test.ts).
        expect(response.json()).toEqual({
          search_query: row.found!.query,
          products_total: row.found!.total,
          products: row.found!.ids.map((id) => productBodies.get(id)),
          brands: expect.any(Array),
          categories: expect.any(Array),
          filters: expect.any(Object),
          price_range: expect.any(Object),
        });
      } else {
        expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
      }
    });

    it('answers each product with the fields of the Product resource', async () => {
      const response = await send(t, get('shop_id={shop}&type=full_search&search_query=ultraboost'), vars);
      const [product] = response.json<{ products: Array<Record<string, unknown>> }>().products;
      expect(product).toMatchObject({
        id: 'run-2',
        uniqid: 'run-2',
        name: 'Кроссовки Adidas Ultraboost',
        brand: 'Adidas',
        price: 1990,
        oldprice: 2490,
        discount: true,
        discount_percent: 20,
        currency: '₽',
        url_handle: '/p/run-2',
        widgetable: true,
        ignored: false,
        is_available: true,
      });
      expect(product!.categories).toEqual([
        expect.objectContaining({ id: '1', level: '1' }),
        expect.objectContaining({ id: '2', level: '2', parent_id: '1', name_with_parent: 'Обувь - Кроссовки' }),
      ]);
    });
  });

  describe('GET /search/no_result_queries', () => {
    beforeAll(async () => {
      const fresh = await createShopFixture(t.app.services);
      await importTestFeed(t.app.services, fresh.shopId, FEED);
      vars = { ...vars, shop: fresh.shopId, secret: fresh.secret };
      for (const query of ['Холодильник', 'холодильник  ', 'кросс', 'сумка']) {
        expect((await send(t, get(`shop_id={shop}&type=full_search&search_query=${encodeURIComponent(query)}`), vars)).statusCode).toBe(
          200,
        );
      }
      // An instant search that found nothing is not counted.
      await send(t, get('shop_id={shop}&type=instant_search&search_query=zzz'), vars);
    });

    it.each(NO_RESULT_CASES)('$name', async (row) => {
      const response = await send(t, row.request, vars);
      expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      if (row.status === 200) expect(response.json()).toEqual(row.body);
      else expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
    });

    it('Accept-Version: 2 → the status envelope', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/search/no_result_queries?shop_id=${vars.shop}&shop_secret=${vars.secret}`,
        headers: { 'accept-version': '2' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'success', payload: { no_result_queries: LIST } });
    });

    it('logs each GET /search with its type, count found and the did and sid given', async () => {
      const query = 'shop_id={shop}&type=instant_search&search_query=%20Сумк&did=a1B2c3D4e5&seance=Z9y8X7w6V5';
      expect((await send(t, get(query), vars)).statusCode).toBe(200);
      const row = await t.db.db
        .selectFrom('search_queries')
        .select(['query', 'type', 'results', 'did', 'sid', 'event_id', 'time'])
        .where('shop_id', '=', vars.shop!)
        .where('query', '=', 'сумк')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        query: 'сумк',
        type: 'instant_search',
        results: 1,
        did: 'a1B2c3D4e5',
        sid: 'Z9y8X7w6V5',
        event_id: null,
        time: t.clock.now(),
      });
    });

    it('counts the search event of POST /push in the log but not as a query that found nothing', async () => {
      const { did } = await t.app.services.identity.createDevice(vars.shop!);
      const push = await t.app.inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: vars.shop, did, event: 'search', search_query: 'Холодильник' },
      });
      expect(push.statusCode).toBe(200);
      const job = await t.db.db
        .selectFrom('jobs')
        .select('payload')
        .where('name', '=', 'tracking.deliver')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await t.app.services.tracking.deliver(JSON.parse(job.payload) as { shopId: string; eventId: number; subscriber: string });
      const logged = await t.db.db
        .selectFrom('search_queries')
        .select(['query', 'type', 'results'])
        .where('shop_id', '=', vars.shop!)
        .where('type', '=', 'push')
        .execute();
      expect(logged).toEqual([{ query: 'холодильник', type: 'push', results: null }]);
      expect((await send(t, noResults('shop_id={shop}&shop_secret={secret}'), vars)).json()).toEqual(LIST);
    });
  });
});
