import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_GET_HEADERS, SDK_USER_AGENT, sdkGetQuery } from './sdk-wire.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../helpers/feed-builder.js';
import { FORM_TYPE, send, type ContractRequest, type Json, type Vars } from './harness.js';
import { searchRequest } from './rn-sdk-requests.js';

/**
 * The filters, pages and facets of GET /search, GET /products and GET /category/{id}
 * (docs/search.md "Filters and facets") as data, on both databases, over a catalog
 * imported through the feed import. Requests are the SDKs' (rn-sdk `search`, Android
 * `getProductsList` / `getCategory`): GET with every parameter in the query string, a
 * form Content-Type and an empty body, did and the session id as `seance` and `sid`, the
 * filters as a JSON text. Fields asserted are the ones they read: products_total,
 * products, brands[].name/count, categories[].id/name/parent/url_handle/count,
 * filters{name: {count, values}}, price_range{min, max}.
 */

const offer = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  available: true,
  url: `https://shop.example/p/${id}`,
  currencyId: 'RUB',
  name,
  ...extra,
});

const FEED: FeedSpec = {
  categories: [
    { id: '1', name: 'Обувь', url: 'https://shop.example/c/shoes' },
    { id: '2', name: 'Кроссовки', parentId: '1', url: 'https://shop.example/c/sneakers' },
    { id: '3', name: 'Сумки', url: 'https://shop.example/c/bags' },
  ],
  locations: [
    { id: 'msk', name: 'Москва', type: 'city' },
    { id: 'spb', name: 'Петербург', type: 'city' },
  ],
  offers: [
    offer('run-1', 'Кроссовки беговые Nike Pegasus', {
      vendor: 'Nike',
      price: '5990',
      categoryIds: ['2'],
      salesRate: 10,
      locations: ['msk'],
      params: [
        { name: 'Цвет', value: 'black' },
        { name: 'Размер', value: '42' },
      ],
    }),
    offer('run-2', 'Кроссовки Adidas Ultraboost', {
      vendor: 'Adidas',
      price: '7990',
      oldprice: '9990',
      categoryIds: ['2'],
      salesRate: 30,
      params: [
        { name: 'Цвет', value: 'white' },
        { name: 'Размер', value: '42' },
        { name: 'Размер', value: '43' },
      ],
    }),
    offer('run-3', 'Кроссовки nike air', {
      vendor: 'NIKE',
      price: '3990',
      categoryIds: ['2'],
      locations: ['spb'],
      params: [{ name: 'Цвет', value: 'white' }],
    }),
    offer('bag-1', 'Сумка спортивная', {
      vendor: 'Nike',
      price: '1990.50',
      categoryIds: ['3'],
      salesRate: 20,
      params: [{ name: 'Цвет', value: 'black' }],
    }),
    offer('boot-1', 'Ботинки Ecco', { vendor: 'Ecco', price: '12990', categoryIds: ['1'] }),
    offer('hidden-1', 'Кроссовки без цены', { vendor: 'Nike', categoryIds: ['2'] }),
    offer('gone-1', 'Кроссовки распроданные', { vendor: 'Nike', price: '100', categoryIds: ['2'], available: false }),
    offer('ignored-1', 'Кроссовки скрытые', { vendor: 'Nike', price: '100', categoryIds: ['2'], ignored: true }),
  ],
};

/** The SDKs' GET: query string only, a form Content-Type, did and the session id twice. */
const sdkGet = (url: string, query: string): ContractRequest => ({
  method: 'GET',
  url,
  query: `shop_id={shop}&did=a1B2c3D4e5&seance=Z9y8X7w6V5&sid=Z9y8X7w6V5&${query}`,
  contentType: FORM_TYPE,
});
const products = (query = '') => sdkGet('/products', query);
const category = (id: string, query = '') => sdkGet(`/category/${id}`, query);
const search = (query: string) => sdkGet('/search', `type=full_search&${query}`);
/** A JSON text as an SDK puts it in a query value (percent-encoded once). */
const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

const ALL_BRANDS = [
  { name: 'Nike', count: 3 },
  { name: 'Adidas', count: 1 },
  { name: 'Ecco', count: 1 },
];
const cat = (id: string, count: number) => {
  const known: Record<string, { name: string; parent: string | null; handle: string }> = {
    '1': { name: 'Обувь', parent: null, handle: '/c/shoes' },
    '2': { name: 'Кроссовки', parent: '1', handle: '/c/sneakers' },
    '3': { name: 'Сумки', parent: null, handle: '/c/bags' },
  };
  const c = known[id]!;
  return { id, name: c.name, parent: c.parent, url: `https://shop.example${c.handle}`, url_handle: c.handle, count };
};
const ALL_CATEGORIES = [cat('1', 4), cat('2', 3), cat('3', 1)];
const ALL_FILTERS = {
  Цвет: { count: 4, values: { black: 2, white: 2 } },
  Размер: { count: 2, values: { '42': 2, '43': 1 } },
};

interface ListingCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  /** 200: the total, the ids of the page in order, and any facets to compare exactly. */
  readonly total?: number;
  readonly ids?: readonly string[];
  readonly facets?: Readonly<Record<string, Json>>;
  readonly message?: string;
}

const CASES: readonly ListingCase[] = [
  // GET /products
  {
    name: 'products: every listed product by sales rate then id, with every facet',
    request: products(),
    status: 200,
    total: 5,
    ids: ['run-2', 'bag-1', 'run-1', 'boot-1', 'run-3'],
    facets: { brands: ALL_BRANDS, categories: ALL_CATEGORIES, filters: ALL_FILTERS, price_range: { min: 1990.5, max: 12990 } },
  },
  { name: 'products: page 2 of 2 per page', request: products('limit=2&page=2'), status: 200, total: 5, ids: ['run-1', 'boot-1'] },
  { name: 'products: a page past the end is empty', request: products('limit=2&page=4'), status: 200, total: 5, ids: [] },
  {
    name: 'products: brands in any case; the brand facet keeps the other brands',
    request: products('brands=nike'),
    status: 200,
    total: 3,
    ids: ['bag-1', 'run-1', 'run-3'],
    facets: { brands: ALL_BRANDS, categories: [cat('1', 2), cat('2', 2), cat('3', 1)] },
  },
  { name: 'products: two brands', request: products('brands=Adidas%2CEcco'), status: 200, total: 2, ids: ['run-2', 'boot-1'] },
  {
    name: 'products: brands as an array',
    request: products('brands[]=Adidas&brands[]=Ecco'),
    status: 200,
    total: 2,
    ids: ['run-2', 'boot-1'],
  },
  {
    name: 'products: a category holds its subtree',
    request: products('categories=1'),
    status: 200,
    total: 4,
    ids: ['run-2', 'run-1', 'boot-1', 'run-3'],
    facets: { categories: ALL_CATEGORIES },
  },
  {
    name: 'products: a location keeps what is sold there or everywhere',
    request: products('locations=msk'),
    status: 200,
    total: 4,
    ids: ['run-2', 'bag-1', 'run-1', 'boot-1'],
  },
  {
    name: 'products: price_min and price_max, inclusive; the price range ignores them',
    request: products('price_min=3990&price_max=7990'),
    status: 200,
    total: 3,
    ids: ['run-2', 'run-1', 'run-3'],
    facets: { price_range: { min: 1990.5, max: 12990 } },
  },
  { name: 'products: a price with a fraction', request: products('price_max=1990.50'), status: 200, total: 1, ids: ['bag-1'] },
  {
    name: 'products: a param filter; its own facet keeps the other values',
    request: products(`filters=${json({ Цвет: ['white'] })}`),
    status: 200,
    total: 2,
    ids: ['run-2', 'run-3'],
    facets: { filters: { Цвет: { count: 4, values: { black: 2, white: 2 } }, Размер: { count: 1, values: { '42': 1, '43': 1 } } } },
  },
  {
    name: 'products: two params must both hold',
    request: products(`filters=${json({ Цвет: ['white'], Размер: ['43'] })}`),
    status: 200,
    total: 1,
    ids: ['run-2'],
  },
  {
    name: 'products: a number stands for its text, a single value for a list of one',
    request: products(`filters=${json({ Размер: 42 })}`),
    status: 200,
    total: 2,
    ids: ['run-2', 'run-1'],
  },
  {
    name: 'products: filters in bracket notation',
    request: products('filters[Цвет][]=black'),
    status: 200,
    total: 2,
    ids: ['bag-1', 'run-1'],
  },
  {
    name: 'products: every filter together',
    request: products(`brands=nike&categories=2&locations=spb&price_max=5000&filters=${json({ Цвет: ['white'] })}`),
    status: 200,
    total: 1,
    ids: ['run-3'],
  },
  {
    name: 'products: an unknown brand finds nothing; the price range is 0 to 0',
    request: products('brands=Puma'),
    status: 200,
    total: 0,
    ids: [],
    facets: { brands: ALL_BRANDS, price_range: { min: 0, max: 0 } },
  },
  {
    name: 'products: an unknown param finds nothing',
    request: products(`filters=${json({ Material: ['leather'] })}`),
    status: 200,
    total: 0,
    ids: [],
  },
  {
    name: 'products: exclude leaves offers out of the page and the facets',
    request: products('exclude=run-2%2Cbag-1'),
    status: 200,
    total: 3,
    ids: ['run-1', 'boot-1', 'run-3'],
    facets: {
      brands: [
        { name: 'Nike', count: 2 },
        { name: 'Ecco', count: 1 },
      ],
    },
  },
  { name: 'search: exclude', request: search('search_query=кроссовки&exclude=run-1%2Crun-3'), status: 200, total: 1, ids: ['run-2'] },
  {
    name: 'exclude of 1,001 ids → 422',
    request: products(`exclude=${Array.from({ length: 1001 }, (_, i) => `p${i}`).join('%2C')}`),
    status: 422,
    message: 'Parameter `exclude` must have at most 1000 ids.',
  },
  {
    name: 'products: sort_by price, ascending',
    request: products('sort_by=price&sort_dir=asc'),
    status: 200,
    total: 5,
    ids: ['bag-1', 'run-3', 'run-1', 'run-2', 'boot-1'],
  },
  {
    name: 'products: sort_by price, descending by default',
    request: products('sort_by=price'),
    status: 200,
    total: 5,
    ids: ['boot-1', 'run-2', 'run-1', 'run-3', 'bag-1'],
  },
  {
    name: 'products: sort_by discount; equal discounts in listing order',
    request: products('sort_by=discount'),
    status: 200,
    total: 5,
    ids: ['run-2', 'bag-1', 'run-1', 'boot-1', 'run-3'],
  },
  { name: 'category: sorted and paged', request: category('2', 'sort_by=price&limit=1&page=2'), status: 200, total: 3, ids: ['run-1'] },
  {
    name: 'search: sort_by price instead of the rank',
    request: search('search_query=кроссовки&sort_by=price&sort_dir=asc'),
    status: 200,
    total: 3,
    ids: ['run-3', 'run-1', 'run-2'],
  },
  {
    name: 'sort_by unknown → 422',
    request: products('sort_by=name'),
    status: 422,
    message: 'Parameter `sort_by` must be one of `popular`, `sales_rate`, `price`, `discount`, `relevance`.',
  },
  // The options of the SDKs' docs (docs/search.md "Filters and facets")
  {
    name: "products: order, the direction's name in the SDK's docs",
    request: products('sort_by=price&order=asc'),
    status: 200,
    total: 5,
    ids: ['bag-1', 'run-3', 'run-1', 'run-2', 'boot-1'],
  },
  {
    name: 'search: sort_by price with order desc',
    request: search('search_query=кроссовки&sort_by=price&order=desc'),
    status: 200,
    total: 3,
    ids: ['run-2', 'run-1', 'run-3'],
  },
  {
    name: 'sort_dir wins over order',
    request: products('sort_by=price&sort_dir=desc&order=asc'),
    status: 200,
    total: 5,
    ids: ['boot-1', 'run-2', 'run-1', 'run-3', 'bag-1'],
  },
  {
    name: 'order unknown → 422',
    request: products('sort_by=price&order=up'),
    status: 422,
    message: 'Parameter `order` must be one of `asc`, `desc`.',
  },
  {
    name: 'products: sort_by sales_rate is the listing order',
    request: products('sort_by=sales_rate'),
    status: 200,
    total: 5,
    ids: ['run-2', 'bag-1', 'run-1', 'boot-1', 'run-3'],
  },
  {
    name: 'products: sort_by sales_rate ascending',
    request: products('sort_by=sales_rate&order=asc'),
    status: 200,
    total: 5,
    ids: ['run-3', 'boot-1', 'run-1', 'bag-1', 'run-2'],
  },
  { name: 'products: offset skips that many', request: products('limit=2&offset=1'), status: 200, total: 5, ids: ['bag-1', 'run-1'] },
  {
    name: 'products: offset wins over page',
    request: products('limit=2&page=3&offset=3'),
    status: 200,
    total: 5,
    ids: ['boot-1', 'run-3'],
  },
  { name: 'category: offset', request: category('2', 'sort_by=price&limit=1&offset=1'), status: 200, total: 3, ids: ['run-1'] },
  { name: 'offset past the end is an empty page', request: products('offset=5'), status: 200, total: 5, ids: [] },
  {
    name: 'offset -1 → 422',
    request: products('offset=-1'),
    status: 422,
    message: 'Parameter `offset` must be an integer from 0 to 100000.',
  },
  {
    name: 'products: category_limit cuts the category facet, most products first',
    request: products('category_limit=2'),
    status: 200,
    total: 5,
    facets: { categories: [cat('1', 4), cat('2', 3)], brands: ALL_BRANDS },
  },
  {
    name: 'products: category_limit 0 lists no category',
    request: products('category_limit=0'),
    status: 200,
    total: 5,
    facets: { categories: [] },
  },
  {
    name: 'search: brand_limit cuts the brand facet',
    request: search('search_query=кроссовки&brand_limit=1'),
    status: 200,
    total: 3,
    facets: { brands: [{ name: 'Nike', count: 2 }], categories: [cat('1', 3), cat('2', 3)] },
  },
  {
    name: "products: brand_limit of the docs' default (1000) lists every brand",
    request: products('brand_limit=1000'),
    status: 200,
    total: 5,
    facets: { brands: ALL_BRANDS },
  },
  {
    name: 'category_limit not an integer → 422',
    request: products('category_limit=many'),
    status: 422,
    message: 'Parameter `category_limit` must be an integer from 0 to 100000.',
  },
  {
    name: 'brand_limit -1 → 422',
    request: products('brand_limit=-1'),
    status: 422,
    message: 'Parameter `brand_limit` must be an integer from 0 to 100000.',
  },
  {
    name: 'products: filters with indexed brackets, as the SDK encodes an array',
    request: products('filters[Цвет][0]=white'),
    status: 200,
    total: 2,
    ids: ['run-2', 'run-3'],
  },
  {
    name: 'products: filters with two indexed values',
    request: products('filters[Размер][0]=42&filters[Размер][1]=43'),
    status: 200,
    total: 2,
    ids: ['run-2', 'run-1'],
  },
  {
    name: 'products: brands with indexed brackets',
    request: products('brands[0]=Adidas&brands[1]=Ecco'),
    status: 200,
    total: 2,
    ids: ['run-2', 'boot-1'],
  },
  {
    name: 'filters with a named key inside a param → 422',
    request: products('filters[Цвет][a]=white'),
    status: 422,
    message: 'Parameter `filters` must be a JSON object of param names to arrays of values.',
  },
  {
    name: 'sort_dir unknown → 422',
    request: products('sort_by=price&sort_dir=up'),
    status: 422,
    message: 'Parameter `sort_dir` must be one of `asc`, `desc`.',
  },
  {
    name: 'products: empty values are absent',
    request: products('brands=&categories=&price_min=&filters=&exclude=&page=&limit='),
    status: 200,
    total: 5,
    ids: ['run-2', 'bag-1', 'run-1', 'boot-1', 'run-3'],
  },
  // GET /category/{id}
  {
    name: 'category: its subtree; the category facet lists it and below',
    request: category('1'),
    status: 200,
    total: 4,
    ids: ['run-2', 'run-1', 'boot-1', 'run-3'],
    facets: {
      categories: [cat('1', 4), cat('2', 3)],
      category: { id: '1', name: 'Обувь', parent: null, url: 'https://shop.example/c/shoes', url_handle: '/c/shoes' },
    },
  },
  {
    name: 'category: with a brand filter and a page',
    request: category('2', 'brands=nike&limit=1&page=2'),
    status: 200,
    total: 2,
    ids: ['run-3'],
  },
  { name: 'category: unknown → 404', request: category('99'), status: 404, message: 'Category not found' },
  {
    name: 'category: a bad page → 422',
    request: category('1', 'page=0'),
    status: 422,
    message: 'Parameter `page` must be an integer from 1 to 1000.',
  },
  // GET /search with the filters
  {
    name: 'search: brands narrow the matches; the facets are of the matches',
    request: search('search_query=кроссовки&brands=nike'),
    status: 200,
    total: 2,
    facets: {
      brands: [
        { name: 'Nike', count: 2 },
        { name: 'Adidas', count: 1 },
      ],
      categories: [cat('1', 2), cat('2', 2)],
    },
  },
  {
    name: 'search: a param filter',
    request: search(`search_query=кроссовки&filters=${json({ Цвет: ['black'] })}`),
    status: 200,
    total: 1,
    ids: ['run-1'],
  },
  {
    name: 'search: a price range',
    request: search('search_query=кроссовки&price_min=5000'),
    status: 200,
    total: 2,
    facets: { price_range: { min: 3990, max: 7990 } },
  },
  { name: 'search: a location', request: search('search_query=кроссовки&locations=spb'), status: 200, total: 2 },
  { name: 'search: a category', request: search('search_query=nike&categories=3'), status: 200, total: 1, ids: ['bag-1'] },
  // bad input, in the order the parameters are read
  { name: 'page 0 → 422', request: products('page=0'), status: 422, message: 'Parameter `page` must be an integer from 1 to 1000.' },
  { name: 'page 1001 → 422', request: products('page=1001'), status: 422, message: 'Parameter `page` must be an integer from 1 to 1000.' },
  { name: 'limit 101 → 422', request: products('limit=101'), status: 422, message: 'Parameter `limit` must be an integer from 1 to 100.' },
  {
    name: '101 brands → 422',
    request: products(`brands=${Array.from({ length: 101 }, (_, i) => `b${i}`).join('%2C')}`),
    status: 422,
    message: 'Parameter `brands` must have at most 100 values.',
  },
  {
    name: 'a category id of 256 characters → 422',
    request: products(`categories=${'c'.repeat(256)}`),
    status: 422,
    message: 'Parameter `categories` must hold ids of at most 255 characters.',
  },
  {
    name: 'price_min not a number → 422',
    request: products('price_min=cheap'),
    status: 422,
    message: 'Parameter `price_min` must be a number from 0 to 1000000000000.',
  },
  {
    name: 'price_max negative → 422',
    request: products('price_max=-1'),
    status: 422,
    message: 'Parameter `price_max` must be a number from 0 to 1000000000000.',
  },
  {
    name: 'price_min above price_max → 422',
    request: products('price_min=9000&price_max=100'),
    status: 422,
    message: 'Parameter `price_min` must not be greater than `price_max`.',
  },
  {
    name: 'filters not JSON → 422',
    request: products('filters=color%3Dred'),
    status: 422,
    message: 'Parameter `filters` must be a JSON object of param names to arrays of values.',
  },
  {
    name: 'filters a JSON array → 422',
    request: products(`filters=${json(['red'])}`),
    status: 422,
    message: 'Parameter `filters` must be a JSON object of param names to arrays of values.',
  },
  {
    name: 'filters with an object value → 422',
    request: products(`filters=${json({ Цвет: [{ a: 1 }] })}`),
    status: 422,
    message: 'Parameter `filters` must be a JSON object of param names to arrays of values.',
  },
  {
    name: 'filters naming 21 params → 422',
    request: products(`filters=${json(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, ['x']])))}`),
    status: 422,
    message: 'Parameter `filters` must name at most 20 params.',
  },
  {
    name: 'filters with 101 values → 422',
    request: products(`filters=${json({ Цвет: Array.from({ length: 101 }, (_, i) => `v${i}`) })}`),
    status: 422,
    message: 'Parameter `filters` must have at most 100 values per param.',
  },
  {
    name: 'filters with a value of 256 characters → 422',
    request: products(`filters=${json({ Цвет: ['x'.repeat(256)] })}`),
    status: 422,
    message: 'Parameter `filters` must have values of at most 255 characters.',
  },
  {
    name: 'filters of 16,001 characters → 422',
    request: products(`filters=${encodeURIComponent(`{"a":["${'x'.repeat(15_991)}"]}`)}`),
    status: 422,
    message: 'Parameter `filters` must be at most 16000 characters.',
  },
  {
    name: 'search: price_min above price_max → 422',
    request: search('search_query=кроссовки&price_min=9000&price_max=100'),
    status: 422,
    message: 'Parameter `price_min` must not be greater than `price_max`.',
  },
  {
    name: 'search: filters not JSON → 422',
    request: search('search_query=кроссовки&filters=%7B'),
    status: 422,
    message: 'Parameter `filters` must be a JSON object of param names to arrays of values.',
  },
  // credentials
  {
    name: 'products: shop_id absent → 401',
    request: { method: 'GET', url: '/products', query: 'limit=1' },
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'products: shop of no shop → 404',
    request: { method: 'GET', url: '/products', query: `shop_id=${'0'.repeat(30)}` },
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'products: a shop that is not active → 403',
    request: { method: 'GET', url: '/products', query: 'shop_id={inactive_shop}' },
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'category: shop_id absent → 401',
    request: { method: 'GET', url: '/category/1' },
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'products: another shop sees only its own catalog',
    request: { method: 'GET', url: '/products', query: 'shop_id={empty_shop}' },
    status: 200,
    total: 0,
    ids: [],
    facets: { brands: [], categories: [], filters: {}, price_range: { min: 0, max: 0 } },
  },
];

describe.each(TEST_DIALECTS)('listing contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;
  /** GET /products/get answers by offer id: a listed product reads the same. */
  const productBodies = new Map<string, Json>();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const services = t.app.services;
    const shop = await createShopFixture(services);
    const inactive = await createShopFixture(services);
    const empty = await createShopFixture(services);
    await importTestFeed(services, shop.shopId, FEED);
    await importTestFeed(services, inactive.shopId, FEED);
    await services.shops.updateShop(inactive.shopId, { active: false });
    vars = { shop: shop.shopId, inactive_shop: inactive.shopId, empty_shop: empty.shopId };
    for (const id of ['run-1', 'run-2', 'run-3', 'bag-1', 'boot-1']) {
      const response = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shop.shopId}&item_id=${id}` });
      productBodies.set(id, response.json<Json>());
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(CASES)('$name', async (row) => {
    const response = await send(t, row.request, vars);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json<Record<string, Json>>();
    if (row.status !== 200) {
      expect(body).toEqual({ status: 'error', payload: { message: row.message } });
      return;
    }
    expect(body.products_total).toBe(row.total);
    if (row.ids) expect(body.products).toEqual(row.ids.map((id) => productBodies.get(id)));
    for (const [key, value] of Object.entries(row.facets ?? {})) expect(body[key], key).toEqual(value);
    for (const key of ['brands', 'categories', 'filters', 'price_range']) expect(body, key).toHaveProperty(key);
  });

  it('search pages partition the ranked matches: page 2 does not repeat page 1', async () => {
    const all = (await send(t, search('search_query=кроссовки&limit=10'), vars)).json<{ products: Array<{ id: string }> }>();
    const ids = all.products.map((p) => p.id);
    expect(ids).toHaveLength(3);
    const pages: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const answer = (await send(t, search(`search_query=кроссовки&limit=1&page=${page}`), vars)).json<{
        products_total: number;
        products: Array<{ id: string }>;
      }>();
      expect(answer.products_total).toBe(3);
      pages.push(...answer.products.map((p) => p.id));
    }
    expect(pages).toEqual(ids);
  });

  it('search: sort_by relevance keeps the rank whatever the direction, and offset counts ranked matches', async () => {
    const idsOf = async (query: string) =>
      (await send(t, search(`search_query=кроссовки&${query}`), vars))
        .json<{ products: Array<{ id: string }> }>()
        .products.map((p) => p.id);
    const ranked = await idsOf('limit=10');
    expect(ranked).toHaveLength(3);
    expect(await idsOf('limit=10&sort_by=relevance&order=asc')).toEqual(ranked);
    expect(await idsOf('limit=1&offset=2')).toEqual([ranked[2]]);
    expect(await idsOf('limit=2&offset=1&page=5')).toEqual(ranked.slice(1));
  });

  it('search as the SDK sends it, reserved characters encoded twice', async () => {
    // The SDK's GET encoding (sdk-wire.ts): `,` and `:` arrive as %252C and %253A, and
    // http/params.ts decodes them once more.
    const query = sdkGetQuery([
      ['search_query', 'кроссовки'],
      ['brands', 'Adidas,NIKE'],
      ['filters', JSON.stringify({ Цвет: ['white'] })],
    ]);
    expect(query).toContain('Adidas%252CNIKE');
    const response = await send(t, search(query), vars);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ products_total: number }>().products_total).toBe(2);
  });

  describe('the SDK calls, as their source builds them (sdk-wire.ts)', () => {
    const session: Array<[string, string]> = [
      ['did', 'a1B2c3D4e5f60718'],
      ['seance', 'q1w2e3r4t5'],
      ['sid', 'q1w2e3r4t5'],
    ];
    const get = (path: string, params: Array<[string, string | null]>) =>
      t.app.inject({ method: 'GET', url: `${path}?${sdkGetQuery([...params, ...session])}`, headers: SDK_GET_HEADERS });

    beforeAll(async () => {
      // The SDK's device id (an Android ID) comes from /init, which registers it.
      const init = await t.app.inject({
        method: 'GET',
        url: `/init?${sdkGetQuery([
          ['shop_id', vars.shop!],
          ['stream', null],
          ['did', 'a1B2c3D4e5f60718'],
        ])}`,
        headers: SDK_GET_HEADERS,
      });
      expect(init.statusCode).toBe(200);
    });

    it('getProductsList: brands and filters as the SDK encodes them, page as text', async () => {
      const response = await get('/products', [
        ['shop_id', vars.shop!],
        ['brands', 'Nike,Adidas'],
        ['categories', '2'],
        ['limit', '2'],
        ['page', '1'],
        ['filters', JSON.stringify({ Размер: ['42'] })],
      ]);
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        products_total: number;
        products: Array<{ id: string }>;
        brands: Array<{ name: string }>;
        filters: Record<string, { count: number; values: Record<string, number> }>;
        price_range: { min: number; max: number };
      }>();
      expect(body.products_total).toBe(2);
      expect(body.products.map((p) => p.id)).toEqual(['run-2', 'run-1']);
      expect(body.brands.map((b) => b.name)).toEqual(expect.arrayContaining(['Nike', 'Adidas']));
      expect(body.filters.Размер?.values).toMatchObject({ '42': 2 });
      expect(body.price_range).toEqual({ min: 5990, max: 7990 });
    });

    it("getCategory: a category page with the SDK's paging and a brand", async () => {
      const response = await get('/category/1', [
        ['shop_id', vars.shop!],
        ['stream', null],
        ['limit', '10'],
        ['page', '1'],
        ['brands', 'Nike'],
      ]);
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        products_total: number;
        products: Array<{ id: string }>;
        brands: Array<{ name: string; count: number }>;
      }>();
      expect(body.products.map((p) => p.id).sort()).toEqual(['run-1', 'run-3']);
      expect(body.products_total).toBe(2);
      expect(body.brands).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Nike' })]));
    });

    it("getCategory by the slug its docs pass (the last path segment of the category's URL): the category of that id", async () => {
      const params: Array<[string, string | null]> = [
        ['shop_id', vars.shop!],
        ['stream', null],
        ['limit', '10'],
        ['page', '1'],
      ];
      const bySlug = await get('/category/sneakers', params);
      expect(bySlug.statusCode, bySlug.body).toBe(200);
      const body = bySlug.json<{ products_total: number; products: Array<{ id: string }>; brands: unknown[]; category: { id: string } }>();
      expect(body.category.id).toBe('2');
      expect(body.products_total).toBe(3);
      expect(body).toEqual((await get('/category/2', params)).json());
      const unknown = await get('/category/t-shirts', params);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ status: 'error', payload: { message: 'Category not found' } });
    });

    it('a push opening a category: GET /category/{id} with the rest of the parameters in a JSON body', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/category/2?shop_id=${vars.shop!}`,
        headers: { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT },
        payload: JSON.stringify({ shop_id: vars.shop!, stream: null, ...Object.fromEntries(session) }),
      });
      expect(response.statusCode).toBe(200);
      const categories = response.json<{ categories: Array<{ id: string; url: string }> }>().categories;
      expect(categories.find((c) => c.id === '2')?.url).toBe('https://shop.example/c/sneakers');
    });

    it("search with the options of the SDK's docs, objects and arrays through its encoder: each one read", async () => {
      const state = { shopId: vars.shop!, did: 'a1B2c3D4e5f60718', sid: 'q1w2e3r4t5' };
      const request = searchRequest(state, {
        type: 'full_search',
        search_query: 'кроссовки',
        brands: ['Nike', 'Adidas'],
        filters: { Размер: ['42', '43'] },
        sort_by: 'price',
        order: 'asc',
        limit: 1,
        offset: 1,
        category_limit: 1,
        brand_limit: 1,
      });
      // What the encoder makes of them: brands joined, the filter's array indexed.
      expect(request.url).toContain('brands=Nike%252CAdidas');
      expect(request.url).toContain('filters[%D0%A0%D0%B0%D0%B7%D0%BC%D0%B5%D1%80][1]=43');
      const response = await t.app.inject(request);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{
        search_query: string;
        products_total: number;
        products: Array<{ id: string }>;
        brands: unknown[];
        categories: Array<{ id: string }>;
      }>();
      // run-1 (5990) and run-2 (7990) match; ascending by price, the second.
      expect(body.search_query).toBe('кроссовки');
      expect(body.products_total).toBe(2);
      expect(body.products.map((p) => p.id)).toEqual(['run-2']);
      expect(body.brands).toEqual([{ name: 'Adidas', count: 1 }]);
      expect(body.categories.map((c) => c.id)).toEqual(['1']);
    });

    it("searchBlank: the empty search box with the device's identity", async () => {
      const response = await get('/search/blank', [
        ['shop_id', vars.shop!],
        ['stream', null],
      ]);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ suggests: unknown[]; last_queries: unknown[]; products: Array<{ id: string }> }>();
      expect(Array.isArray(body.suggests)).toBe(true);
      expect(Array.isArray(body.last_queries)).toBe(true);
      expect(body.products.length).toBeGreaterThan(0);
    });
  });
});
