import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../helpers/feed-builder.js';
import { item, push } from '../modules/tracking/tracking-fixture.js';
import { recommendRequest } from './rn-sdk-requests.js';
import { SDK_GET_HEADERS } from './sdk-wire.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /recommend/{code} as each platform SDK calls it and reads it (docs/mobile-sdk.md
 * "`recommend` in the three SDKs"), on both databases:
 * - React Native: shop_id, stream (null), recommender_code and the app's options through
 *   the SDK's GET encoder (lists comma-joined), then did, seance, sid; the app reads the raw JSON;
 * - iOS: shop_id, did, seance, sid, extended=true, resize_image=180, segment, item_id,
 *   categories (one id), locations, stream=ios; it reads `title` and `recommends[]` as
 *   objects whose `id` is a string, prices numbers, `sales_rate` an integer and
 *   `image_url_resized` a map of strings, and it counts only 200–298 as success;
 * - Android: item, categories (comma-joined, `%2C`), limit, brands, exclude_brands,
 *   discount, extended, resize_image, segment, stream=android; it reads `id` as an integer
 *   and, without extended, each of `recommends` as an integer (offer ids of digits).
 */

const offer = (id: string, categoryId: string, price: number, extra: Partial<FeedOfferSpec> = {}): FeedOfferSpec => ({
  id,
  url: `https://shop.example/p/${id}`,
  price,
  categoryIds: [categoryId],
  name: `Product ${id}`,
  pictures: [`https://img.shop.example/${id}.jpg`],
  ...extra,
});

const FEED = {
  categories: [
    { id: '1', name: 'Shoes' },
    { id: '2', name: 'Socks' },
  ],
  locations: [{ id: 'msk', name: 'Moscow' }],
  offers: [
    offer('101', '1', 1000, { salesRate: 90, vendor: 'Acme' }),
    offer('102', '1', 1100, { salesRate: 80, vendor: 'Boot', oldprice: 1400 }),
    offer('103', '1', 1200, { salesRate: 70, vendor: 'Acme' }),
    offer('201', '2', 100, { salesRate: 60, vendor: 'Acme' }),
    offer('202', '2', 120, { salesRate: 50, vendor: 'Boot' }),
  ],
};

describe.each(TEST_DIALECTS)('recommend as the SDKs call it on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let blockId: number;
  let device: { did: string; sid: string };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    await importTestFeed(t.app.services, shopId, FEED);
    // Socks 201 and 202 go with shoe 101 in two orders each: also_bought of 101 is the socks.
    const { did: buyer } = await t.app.services.identity.createDevice(shopId);
    for (const [orderId, items] of [
      ['o1', ['101', '201', '202']],
      ['o2', ['101', '201', '202']],
    ] as const) {
      await t.app.services.tracking.recordPush(
        push(shopId, buyer, 'purchase', { items: items.map((id) => item(id)), purchase: { orderId } }),
      );
    }
    await t.app.services.recommendationModels.rebuild(shopId);
    ({ id: blockId } = await t.app.services.recommendationBlocks.putBlock(shopId, 'product_page', {
      title: 'Goes with it',
      limit: 10,
      rules: [{ recommender: 'also_bought' }, { recommender: 'popular' }],
    }));
    device = await initDevice(t, shopId);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = async (request: InjectOptions) => {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: unknown; title: unknown; html: unknown; recommends: unknown[] }>();
  };
  const nativeGet = (query: string): InjectOptions => ({
    method: 'GET',
    url: `/recommend/product_page?${query}`,
    headers: { 'user-agent': 'SDK test' },
  });

  it('React Native: recommend(code, {item, exclude: [...], limit}) answers the block with offer ids as strings', async () => {
    const state = { shopId, ...device };
    const answer = await send(recommendRequest(state, 'product_page', { item: '101', exclude: ['202'], limit: 3 }));
    expect(answer).toEqual({ id: blockId, title: 'Goes with it', html: '', recommends: ['201', '102', '103'] });
    // The SDK's encoder escapes the joining comma twice (sdk-wire.ts); the server reads it back as a comma.
    expect(recommendRequest(state, 'product_page', { exclude: ['202', '103'] }).url).toContain('&exclude=202%252C103&');
  });

  it('React Native: extended with a category list answers product objects whose links credit the block', async () => {
    const state = { shopId, ...device };
    const answer = await send(
      recommendRequest(state, 'product_page', { item: '101', extended: true, categories: ['2'], with_locations: true }),
    );
    expect(answer.recommends.map((p) => (p as { id: string }).id)).toEqual(['201', '202']);
    expect((answer.recommends[0] as { url: string }).url).toBe(
      'https://shop.example/p/201?recommended_by=dynamic&recommended_code=product_page',
    );
    expect(SDK_GET_HEADERS['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('iOS: the fields it always sends, and the types it demands of each product', async () => {
    const query = new URLSearchParams({
      shop_id: shopId,
      did: device.did,
      seance: device.sid,
      sid: device.sid,
      extended: 'true',
      resize_image: '180',
      segment: 'A',
      item_id: '101',
      categories: '2',
      locations: 'msk',
      stream: 'ios',
    });
    const answer = await send(nativeGet(query.toString()));
    expect(answer.title).toBe('Goes with it');
    expect(answer.recommends).toHaveLength(2);
    for (const product of answer.recommends as Record<string, unknown>[]) {
      expect(typeof product.id).toBe('string');
      expect(typeof product.name).toBe('string');
      expect(typeof product.price).toBe('number');
      expect(typeof product.price_full).toBe('number');
      expect(Number.isInteger(product.sales_rate)).toBe(true);
      expect(Object.values(product.image_url_resized as Record<string, unknown>).every((link) => typeof link === 'string')).toBe(true);
      expect(typeof product.url).toBe('string');
    }
  });

  it('Android: a basic answer of digit ids it reads as integers, with its list and flag parameters', async () => {
    const query = [
      `shop_id=${shopId}`,
      `did=${device.did}`,
      `seance=${device.sid}`,
      `sid=${device.sid}`,
      'segment=B',
      'stream=android',
      'item=101',
      'categories=1%2C2',
      'limit=5',
      'brands=Acme%2CBoot',
      'exclude_brands=Boot',
      'discount=false',
      'extended=false',
      'resize_image=180',
    ].join('&');
    const answer = await send(nativeGet(query));
    expect(Number.isInteger(answer.id)).toBe(true);
    expect(answer.recommends).toEqual(['201', '103']);
    expect(answer.recommends.every((id) => typeof id === 'string' && /^\d+$/.test(id))).toBe(true);
  });

  it('Android: extended products carry sales_rate as an integer and image_url_resized as an object', async () => {
    const answer = await send(nativeGet(`shop_id=${shopId}&did=${device.did}&item=101&extended=true&discount=true&stream=android`));
    expect(answer.recommends).toHaveLength(1);
    const [product] = answer.recommends as Record<string, unknown>[];
    expect(product).toMatchObject({ id: '102', discount: true, sales_rate: 80 });
    expect(typeof product!.image_url_resized).toBe('object');
  });

  it('every SDK: an unknown block is 404 in the status envelope, which each resolves as an error', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/recommend/unknown_block?shop_id=${shopId}&did=${device.did}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'error', payload: { message: 'Recommendation block `unknown_block` does not exist.' } });
  });
});
