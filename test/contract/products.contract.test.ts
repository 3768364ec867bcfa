import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLink } from '../../src/modules/images/domain/links.js';
import * as imagesRepo from '../../src/modules/images/images.repo.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';
import { catalogFeed } from './catalog-fixtures.js';
import { fill, FORM_TYPE, type Json, type Vars } from './harness.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /products/get and GET /products/counters (interface.md endpoints 7 and 8,
 * "Versioning"; contract-notes "Secrets and errors") as data, on both databases, against
 * a catalog imported from a feed built in the test. Placeholders: {shop} (RUB, with the
 * catalog), {empty_shop} (no import yet), {other_shop} (USD, a catalog without sku-1),
 * {inactive_shop}, {unknown_shop}.
 */

const IMG = 'https://img.shop.example/sku-1.jpg';

const SKU_1: Json = {
  name: 'Runner red',
  is_available: true,
  description: 'Light running shoes',
  url: 'https://shop.example/p/sku-1?color=red#reviews',
  url_handle: '/p/sku-1?color=red#reviews',
  deeplink_android: 'https://shop.example/app/sku-1',
  deeplink_ios: null,
  category_ids: ['3'],
  barcode: '4600000000011',
  vendor_code: 'AC-1',
  brand: 'Acme',
  model: 'Runner',
  sales_rate: 7,
  relative_sales_rate: null,
  picture: IMG,
  image_url: IMG,
  image_url_handle: '/sku-1.jpg',
  image_url_resized: { 120: IMG, 140: IMG, 160: IMG, 180: IMG, 200: IMG, 220: IMG, 310: IMG, 520: IMG, original: IMG },
  categories: [
    {
      id: '1',
      name: 'Clothes',
      url: 'https://shop.example/c/clothes',
      url_handle: '/c/clothes',
      name_with_parent: 'Clothes',
      level: '1',
      branch: 1,
    },
    {
      id: '2',
      name: 'Shoes',
      url: 'https://shop.example/c/shoes?sort=new',
      url_handle: '/c/shoes?sort=new',
      name_with_parent: 'Clothes - Shoes',
      level: '2',
      parent_id: '1',
      parent: '1',
      branch: 1,
    },
    {
      id: '3',
      name: 'Sneakers',
      url: 'https://shop.example/c/sneakers',
      url_handle: '/c/sneakers',
      name_with_parent: 'Shoes - Sneakers',
      level: '3',
      parent_id: '2',
      parent: '2',
      branch: 1,
    },
  ],
  discount_percent: 20,
  discount: true,
  discount_formatted: '20%',
  price: 1990,
  price_full: 1990.5,
  price_formatted: '1 990 ₽',
  price_full_formatted: '1 990.50 ₽',
  oldprice: 2490,
  oldprice_full: 2490,
  oldprice_formatted: '2 490 ₽',
  oldprice_full_formatted: '2 490.00 ₽',
  currency: '₽',
  uniqid: 'sku-1',
  id: 'sku-1',
  group_id: 'g-1',
  widgetable: true,
  ignored: false,
  locations: { msk: { name: 'Moscow', type: 'city' } },
  params: [
    { key: 'Color', values: ['red'] },
    { key: 'Size', values: ['42', '43'] },
  ],
};

const ZERO_COUNTERS: Json = {
  daily: { view: 0, cart: 0, purchase: 0 },
  now: { view: 0, cart: 0, purchase: 0 },
  triggers: { back_in_stock: 0, price_drop: 0 },
};

interface Case {
  readonly name: string;
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly contentType?: string;
  readonly status: number;
  /** The exact body of a 200, or the message of an error. */
  readonly body?: Json;
  readonly message?: string;
}

const get = '/products/get?shop_id={shop}';
const counters = '/products/counters?shop_id={shop}';
const envelope = (key: string, data: Json): Json => ({ status: 'success', payload: { [key]: data } });

const CASES: readonly Case[] = [
  { name: 'get: the product, bare', url: `${get}&item_id=sku-1`, status: 200, body: SKU_1 },
  {
    name: 'get: v=2 → the status envelope with payload.product',
    url: `${get}&item_id=sku-1&v=2`,
    status: 200,
    body: envelope('product', SKU_1),
  },
  {
    name: 'get: Accept-Version: 2 → the envelope',
    url: `${get}&item_id=sku-1`,
    headers: { 'accept-version': '2' },
    status: 200,
    body: envelope('product', SKU_1),
  },
  { name: 'get: v=1 → bare', url: `${get}&item_id=sku-1&v=1`, status: 200, body: SKU_1 },
  {
    name: 'get: GET with a form content type and an empty body',
    url: `${get}&item_id=sku-1`,
    contentType: FORM_TYPE,
    status: 200,
    body: SKU_1,
  },
  { name: 'get: item_id absent → 422', url: get, status: 422, message: 'Parameter `item_id` is required.' },
  { name: 'get: item_id empty → 422', url: `${get}&item_id=`, status: 422, message: 'Parameter `item_id` must be a non-empty string.' },
  {
    name: 'get: item_id of 256 characters → 422',
    url: `${get}&item_id=${'x'.repeat(256)}`,
    status: 422,
    message: 'Parameter `item_id` must be at most 255 characters.',
  },
  {
    name: 'get: an array item_id → 422',
    url: `${get}&item_id[]=sku-1`,
    status: 422,
    message: 'Parameter `item_id` must be a non-empty string.',
  },
  { name: 'get: unknown product → 404', url: `${get}&item_id=nope`, status: 404, message: 'Product not found' },
  {
    name: 'get: unknown product with v=2 → 404 in the status envelope',
    url: `${get}&item_id=nope&v=2`,
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'get: a shop without a catalog → 404',
    url: '/products/get?shop_id={empty_shop}&item_id=sku-1',
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'get: another shop’s product is not found',
    url: '/products/get?shop_id={other_shop}&item_id=sku-1',
    status: 404,
    message: 'Product not found',
  },
  { name: 'get: shop_id absent → 401', url: '/products/get?item_id=sku-1', status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'get: shop_id malformed → 422',
    url: '/products/get?shop_id=xyz&item_id=sku-1',
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  { name: 'get: unknown shop → 404', url: '/products/get?shop_id={unknown_shop}&item_id=sku-1', status: 404, message: 'Shop not found' },
  {
    name: 'get: inactive shop → 403',
    url: '/products/get?shop_id={inactive_shop}&item_id=sku-1',
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'get: POST → 405',
    url: `${get}&item_id=sku-1`,
    method: 'POST',
    status: 405,
    message: 'Method POST is not allowed for this endpoint.',
  },

  { name: 'counters: bare', url: `${counters}&item=sku-1`, status: 200, body: ZERO_COUNTERS },
  { name: 'counters: v=2 → payload.counters', url: `${counters}&item=sku-1&v=2`, status: 200, body: envelope('counters', ZERO_COUNTERS) },
  {
    name: 'counters: Accept-Version: 2 → the envelope',
    url: `${counters}&item=sku-1`,
    headers: { 'accept-version': '2' },
    status: 200,
    body: envelope('counters', ZERO_COUNTERS),
  },
  { name: 'counters: item absent → 422', url: counters, status: 422, message: 'Parameter `item` is required.' },
  { name: 'counters: item empty → 422', url: `${counters}&item=`, status: 422, message: 'Parameter `item` must be a non-empty string.' },
  { name: 'counters: unknown product → 404', url: `${counters}&item=nope`, status: 404, message: 'Product not found' },
  {
    name: 'counters: a shop without a catalog → 404',
    url: '/products/counters?shop_id={empty_shop}&item=sku-1',
    status: 404,
    message: 'Product not found',
  },
  {
    name: 'counters: shop_id absent → 401',
    url: '/products/counters?item=sku-1',
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'counters: shop_id malformed → 422',
    url: '/products/counters?shop_id=12&item=sku-1',
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'counters: unknown shop → 404',
    url: '/products/counters?shop_id={unknown_shop}&item=sku-1',
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'counters: inactive shop → 403',
    url: '/products/counters?shop_id={inactive_shop}&item=sku-1',
    status: 403,
    message: 'Shop is not active.',
  },
];

describe.each(TEST_DIALECTS)('GET /products/get and /products/counters contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const shop = await createShopFixture(t.app.services);
    const empty = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services, { currency: 'USD' });
    const inactive = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shop.shopId, catalogFeed());
    await importTestFeed(t.app.services, other.shopId, {
      offers: [{ id: 'usd-1', price: '1234.5', oldprice: '1500', name: 'Hat', url: 'https://u.example/h' }],
    });
    await importTestFeed(t.app.services, inactive.shopId, catalogFeed());
    await t.app.services.shops.updateShop(inactive.shopId, { active: false });
    vars = {
      shop: shop.shopId,
      secret: shop.secret,
      empty_shop: empty.shopId,
      other_shop: other.shopId,
      inactive_shop: inactive.shopId,
      unknown_shop: 'a'.repeat(30),
    };
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(CASES)('$name', async (row) => {
    const response = await t.app.inject({
      method: row.method ?? 'GET',
      url: fill(row.url, vars),
      headers: { ...row.headers, ...(row.contentType && { 'content-type': row.contentType }) },
      ...(row.contentType && { payload: '' }),
    });
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    if (row.status === 200) expect(response.json()).toEqual(row.body);
    else expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
  });

  it('spells a product without a price, picture or oldprice with nulls', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${vars.shop}&item_id=sku-4` });
    expect(response.json()).toMatchObject({
      name: 'Gift card (no price)',
      description: '',
      price: null,
      price_full: null,
      price_formatted: null,
      price_full_formatted: null,
      oldprice: null,
      discount: false,
      discount_percent: 0,
      discount_formatted: '0%',
      picture: null,
      image_url_resized: null,
      widgetable: false,
      locations: {},
      categories: [{ id: '1', level: '1', branch: 1 }],
    });
  });

  it('formats prices with the symbol of the shop’s currency', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${vars.other_shop}&item_id=usd-1` });
    expect(response.json()).toMatchObject({
      price: 1234,
      price_full: 1234.5,
      price_formatted: '1 234 $',
      price_full_formatted: '1 234.50 $',
      oldprice_formatted: '1 500 $',
      currency: '$',
      discount_percent: 18,
      categories: [],
      widgetable: false,
    });
  });

  it('counts views, carts and purchases of the last 30 minutes and the last day', async () => {
    const { did } = await initDevice(t, vars.shop!);
    const push = async (event: string, extra: Record<string, unknown> = {}) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: vars.shop, did, event, items: [{ id: 'sku-2' }], ...extra },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await push('view');
    await push('view');
    await push('cart');
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: `/products/counters?shop_id=${vars.shop}&item=sku-2` })).json<Json>();
    expect(await read()).toEqual({
      daily: { view: 2, cart: 1, purchase: 0 },
      now: { view: 2, cart: 1, purchase: 0 },
      triggers: { back_in_stock: 0, price_drop: 0 },
    });
    t.clock.advance(31 * 60_000);
    await push('purchase', { order_id: 'o-1' });
    expect(await read()).toEqual({
      daily: { view: 2, cart: 1, purchase: 1 },
      now: { view: 0, cart: 0, purchase: 1 },
      triggers: { back_in_stock: 0, price_drop: 0 },
    });
  });

  it('shows the thumbnails the images module made, and its download errors in not_widgetable', async () => {
    const done = 'https://img.shop.example/sku-1.jpg';
    const failed = 'https://img.shop.example/sku-7.jpg';
    const shopId = vars.shop!;
    const now = t.clock.now();
    await imagesRepo.registerSeen(
      t.db.db,
      shopId,
      [done, failed].map((link) => ({ hash: hashLink(link), link })),
      now,
    );
    await imagesRepo.markDone(t.db.db, shopId, hashLink(done), now);
    await imagesRepo.markFailed(t.db.db, shopId, hashLink(failed), 'The picture answered 404.', now + 3_600_000, now);
    try {
      const product = (await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shopId}&item_id=sku-1` })).json<
        Record<string, unknown>
      >();
      const base = `${t.config.publicUrl}/images/${shopId}/${hashLink(done)}`;
      expect(product.image_url).toBe(done);
      expect(product.image_url_resized).toEqual({
        ...Object.fromEntries([120, 140, 160, 180, 200, 220, 310, 520].map((size) => [String(size), `${base}/${size}.jpg`])),
        original: done,
      });
      const hidden = await t.app.inject({ method: 'GET', url: `/products/not_widgetable?shop_id=${shopId}&shop_secret=${vars.secret}` });
      expect(hidden.json()).toMatchObject({
        data: {
          items: [
            { uniqid: 'sku-4', image_downloading_error: null },
            { uniqid: 'sku-7', image_url: failed, image_downloading_error: 'The picture answered 404.' },
          ],
        },
      });
    } finally {
      await t.db.db.deleteFrom('product_images').where('shop_id', '=', shopId).execute();
    }
  });
});
