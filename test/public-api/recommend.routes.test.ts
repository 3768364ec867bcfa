import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec, type FeedSpec } from '../helpers/feed-builder.js';
import { item, push } from '../modules/tracking/tracking-fixture.js';

/**
 * GET /recommend/{code} through the whole app (contract-notes "Beyond interface.md";
 * docs/recommendations.md "GET /recommend"), on both databases: the block's rules over
 * stored models built from real events, the exclusions, the filters and the parameter
 * encodings. The SDKs' exact requests are in test/contract/recommend.contract.test.ts.
 */

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

const offer = (id: string, categoryId: string, price: number, extra: Partial<FeedOfferSpec> = {}): FeedOfferSpec => ({
  id,
  url: `https://shop.example/p/${id}`,
  price,
  categoryIds: [categoryId],
  name: `Product ${id}`,
  pictures: [`https://img.shop.example/${id}.jpg`],
  ...extra,
});

/** Shoes (2, under Clothes 1) and Books (4); sales_rate sets the feed's order: S1 first. */
function feed(): FeedSpec {
  return {
    categories: [
      { id: '1', name: 'Clothes' },
      { id: '2', name: 'Shoes', parentId: '1' },
      { id: '3', name: 'Hats', parentId: '1' },
      { id: '4', name: 'Books' },
    ],
    locations: [
      { id: 'msk', name: 'Moscow' },
      { id: 'spb', name: 'Saint Petersburg' },
    ],
    offers: [
      offer('S1', '2', 1000, { salesRate: 90, vendor: 'Acme', params: [{ name: 'color', value: 'red' }] }),
      offer('S2', '2', 1050, { salesRate: 80, vendor: 'Acme', params: [{ name: 'color', value: 'red' }] }),
      offer('S3', '2', 1080, { salesRate: 70, vendor: 'Boot', oldprice: 1500, params: [{ name: 'color', value: 'blue' }] }),
      offer('S4', '2', 5000, { salesRate: 60, vendor: 'Boot', locations: ['spb'] }),
      offer('H1', '3', 300, { salesRate: 50, vendor: 'Acme' }),
      offer('B1', '4', 500, { salesRate: 40 }),
      offer('B2', '4', 550, { salesRate: 30 }),
      offer('GONE', '4', 500, { salesRate: 95, available: false }),
    ],
  };
}

describe.each(TEST_DIALECTS)('GET /recommend/{code} on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t.close();
  });

  async function shopWithFeed(): Promise<string> {
    const { shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed());
    return shopId;
  }
  const putBlock = (shopId: string, code: string, rules: unknown, limit = 10) =>
    t.app.services.recommendationBlocks.putBlock(shopId, code, { title: `Block ${code}`, limit, rules });
  const get = (shopId: string, code: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/recommend/${code}?shop_id=${shopId}${query}` });
  const ids = async (shopId: string, code: string, query = '') => {
    const response = await get(shopId, code, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ recommends: string[] }>().recommends;
  };
  const buy = async (shopId: string, did: string, orderId: string, items: string[]) =>
    t.app.services.tracking.recordPush(push(shopId, did, 'purchase', { items: items.map((id) => item(id)), purchase: { orderId } }));
  const rebuild = async (shopId: string) => {
    expect(await t.app.services.recommendationModels.rebuild(shopId)).toMatchObject({ status: 'built' });
  };

  it('answers the block bare: its integer id, title, an empty html and offer ids as strings in feed order before any event', async () => {
    const shopId = await shopWithFeed();
    const block = await putBlock(shopId, 'home', [{ recommender: 'popular' }], 4);
    const response = await get(shopId, 'home');
    expect(response.statusCode, response.body).toBe(200);
    // GONE sells best but is not available: the storefront cannot show it.
    expect(response.json()).toEqual({ id: block.id, title: 'Block home', html: '', recommends: ['S1', 'S2', 'S3', 'S4'] });
  });

  it('answers 404 in the status envelope for a block that does not exist, and 422 naming a bad parameter', async () => {
    const shopId = await shopWithFeed();
    const missing = await get(shopId, 'nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 'error', payload: { message: 'Recommendation block `nope` does not exist.' } });
    expect((await get(shopId, 'NOT%20A%20CODE')).json()).toEqual({
      status: 'error',
      payload: { message: 'Recommendation block does not exist.' },
    });
    await putBlock(shopId, 'home', [{ recommender: 'popular' }]);
    const bad = await get(shopId, 'home', '&page=0');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ status: 'error', payload: { message: 'Parameter `page` must be an integer of at least 1.' } });
  });

  it('answers also_bought from the built model, never the current item, the cart or what the visitor just bought', async () => {
    const shopId = await shopWithFeed();
    const { did: buyer } = await t.app.services.identity.createDevice(shopId);
    // A pair counts from two orders on: H1 goes with S1 three times, B1 and B2 twice.
    await buy(shopId, buyer, 'o1', ['S1', 'H1']);
    await buy(shopId, buyer, 'o2', ['S1', 'H1', 'B1']);
    await buy(shopId, buyer, 'o3', ['S1', 'H1', 'B1', 'B2']);
    await buy(shopId, buyer, 'o4', ['S1', 'B2']);
    await rebuild(shopId);
    await putBlock(shopId, 'pdp', [{ recommender: 'also_bought' }]);
    expect(await ids(shopId, 'pdp', '&item=S1')).toEqual(['H1', 'B1', 'B2']);

    const { did: visitor } = await t.app.services.identity.createDevice(shopId);
    await t.app.services.tracking.recordPush(push(shopId, visitor, 'cart', { items: [item('B1')] }));
    await buy(shopId, visitor, 'o5', ['B2']);
    expect(await ids(shopId, 'pdp', `&item=S1&did=${visitor}`)).toEqual(['H1']);
    // Thirty days on, the purchase no longer keeps B2 out.
    t.clock.set(NOW + 31 * DAY);
    try {
      expect(await ids(shopId, 'pdp', `&item=S1&did=${visitor}`)).toEqual(['H1', 'B2']);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('reads exclude in the three encodings, caps limit at 100, and takes 10,000 excluded ids but not 10,001', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'home', [{ recommender: 'popular' }], 3);
    for (const query of ['&exclude=S1,S3', '&exclude=["S1","S3"]', '&exclude[]=S1&exclude[]=S3', '&exclude[0]=S1&exclude[1]=S3']) {
      expect(await ids(shopId, 'home', encodeURI(query)), query).toEqual(['S2', 'S4', 'H1']);
    }
    expect(await ids(shopId, 'home', '&limit=100000')).toEqual(['S1', 'S2', 'S3', 'S4', 'H1', 'B1', 'B2']);
    expect(await ids(shopId, 'home', '&limit=2&page=2')).toEqual(['S3', 'S4']);
    const many = Array.from({ length: 10_000 }, (_, i) => `x${i}`);
    expect(await ids(shopId, 'home', `&exclude=S1,${many.slice(1).join(',')}`)).toEqual(['S2', 'S3', 'S4']);
    const tooMany = await get(shopId, 'home', `&exclude=${[...many, 'S1'].join(',')}`);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toEqual({ status: 'error', payload: { message: 'Parameter `exclude` must have at most 10000 ids.' } });
  });

  it('takes 10,000 excluded ids over a real connection, a query string of about 70 KB', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'home', [{ recommender: 'popular' }], 2);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const exclude = ['S1', ...Array.from({ length: 9_999 }, (_, i) => `o${i}`)].join(',');
      const response = await fetch(`${address}/recommend/home?shop_id=${shopId}&exclude=${exclude}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { recommends: string[] }).recommends).toEqual(['S2', 'S3']);
    } finally {
      await new Promise((resolve) => t.app.server.close(resolve));
    }
  });

  it('narrows by brands, exclude_brands, discount, locations and categories', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'home', [{ recommender: 'popular' }], 10);
    expect(await ids(shopId, 'home', '&brands=acme')).toEqual(['S1', 'S2', 'H1']);
    expect(await ids(shopId, 'home', '&exclude_brands=Acme,Boot')).toEqual(['B1', 'B2']);
    expect(await ids(shopId, 'home', '&discount=1')).toEqual(['S3']);
    expect(await ids(shopId, 'home', '&discount=false')).toHaveLength(7);
    // S4 is sold in Saint Petersburg only; products without locations are sold everywhere.
    expect(await ids(shopId, 'home', '&locations=msk')).toEqual(['S1', 'S2', 'S3', 'H1', 'B1', 'B2']);
    expect(await ids(shopId, 'home', '&categories=1')).toEqual(['S1', 'S2', 'S3', 'S4', 'H1']);
    expect(await ids(shopId, 'home', '&category=3')).toEqual(['H1']);
  });

  it('answers similar from the product’s own category, the closest price and shared params first', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'similar', [{ recommender: 'similar' }]);
    // S2 (5 % dearer, red like S1) before S3 (8 %, blue), S4 (5x) last; H1 is in Hats, not Shoes.
    expect(await ids(shopId, 'similar', '&item=S1')).toEqual(['S2', 'S3', 'S4']);
    expect(await ids(shopId, 'similar', '&item=S1&limit=1')).toEqual(['S2']);
    // An answer is kept per catalog generation: in a new feed S2 is a hat, no longer like S1.
    const next = feed();
    await importTestFeed(t.app.services, shopId, {
      ...next,
      offers: (next.offers ?? []).map((o) => (o.id === 'S2' ? { ...o, categoryIds: ['3'] } : o)),
    });
    expect(await ids(shopId, 'similar', '&item=S1')).toEqual(['S3', 'S4']);
  });

  it('falls back to popular when the rules find nothing: a product not in the feed is no error', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'pdp', [{ recommender: 'also_bought' }, { recommender: 'similar' }], 2);
    expect(await ids(shopId, 'pdp', '&item=NOT-IN-FEED')).toEqual(['S1', 'S2']);
  });

  it('follows the rules’ conditions: has_item, item_in_category, has_cart', async () => {
    const shopId = await shopWithFeed();
    await putBlock(
      shopId,
      'smart',
      [
        {
          if: { item_in_category: '1' },
          then: [{ recommender: 'similar' }],
          else: [{ recommender: 'similar' }, { recommender: 'trending' }],
        },
        { if: { has_cart: true }, then: [{ recommender: 'recently_viewed' }] },
      ],
      3,
    );
    expect(await ids(shopId, 'smart', '&item=S4')).toEqual(['S3', 'S2', 'S1']);
    expect(await ids(shopId, 'smart', '&item=B1')).toEqual(['B2']);
    // Hats holds H1 alone: the rules find nothing, and popular stands in.
    expect(await ids(shopId, 'smart', '&item=H1')).toEqual(['S1', 'S2', 'S3']);
    const { did } = await t.app.services.identity.createDevice(shopId);
    await t.app.services.tracking.recordPush(push(shopId, did, 'view', { items: [item('B2')] }));
    await t.app.services.tracking.recordPush(push(shopId, did, 'cart', { items: [item('S1')] }));
    expect(await ids(shopId, 'smart', `&item=S4&did=${did}`)).toEqual(['S3', 'S2', 'B2']);
  });

  it('answers recently_viewed newest first and interesting from the visitor’s history', async () => {
    const shopId = await shopWithFeed();
    const { did } = await t.app.services.identity.createDevice(shopId);
    for (const [id, at] of [
      ['S2', 3],
      ['B1', 2],
      ['S2', 1],
      ['H1', 0],
    ] as const) {
      t.clock.set(NOW - at * 60_000);
      await t.app.services.tracking.recordPush(push(shopId, did, 'view', { items: [item(id)] }));
    }
    t.clock.set(NOW);
    await putBlock(shopId, 'seen', [{ recommender: 'recently_viewed' }]);
    expect(await ids(shopId, 'seen', `&did=${did}`)).toEqual(['H1', 'S2', 'B1']);
    expect(await ids(shopId, 'seen', `&did=${did}&item=S2`)).toEqual(['H1', 'B1']);

    const { did: other } = await t.app.services.identity.createDevice(shopId);
    await buy(shopId, other, 'o1', ['H1', 'B2']);
    await buy(shopId, other, 'o2', ['H1', 'B2', 'S3']);
    await rebuild(shopId);
    await putBlock(shopId, 'for-you', [{ recommender: 'interesting' }], 2);
    // H1, viewed last, goes with B2 in two orders: B2 leads; popular fills the rest.
    const forYou = await ids(shopId, 'for-you', `&did=${did}`);
    expect(forYou[0]).toBe('B2');
    expect(forYou).toHaveLength(2);
  });

  it('answers search from what devices bought within a week of searching the query', async () => {
    const shopId = await shopWithFeed();
    const search = (did: string, query: string) => t.app.services.tracking.recordPush(push(shopId, did, 'search', { searchQuery: query }));
    for (const [orderId, bought] of [
      ['s1', 'B2'],
      ['s2', 'B2'],
      ['s3', 'H1'],
    ] as const) {
      const { did } = await t.app.services.identity.createDevice(shopId);
      await search(did, '  Warm  HAT ');
      t.clock.set(NOW + DAY);
      await buy(shopId, did, orderId, [bought]);
      t.clock.set(NOW);
    }
    // Bought 8 days after the search: not its outcome.
    const { did: late } = await t.app.services.identity.createDevice(shopId);
    await search(late, 'warm hat');
    t.clock.set(NOW + 8 * DAY);
    await buy(shopId, late, 'late', ['S1']);
    // A pushed search reaches the search log through tracking's outbox.
    // (Thumbnail downloads of the feed's pictures are queued too: they would reach for the network.)
    await t.db.db.deleteFrom('jobs').where('name', '=', 'images.download').execute();
    await createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') }).runDue();
    await rebuild(shopId);
    await putBlock(shopId, 'found', [{ recommender: 'search' }]);
    expect(await ids(shopId, 'found', '&search_query=warm%20hat')).toEqual(['B2', 'H1']);
    t.clock.set(NOW);
    expect(await ids(shopId, 'found', '&search_query=WARM+hat')).toEqual(['B2', 'H1']);
  });

  it('answers product objects with extended: the fields of /products/get, links crediting the block, pictures at resize_image', async () => {
    const shopId = await shopWithFeed();
    await putBlock(shopId, 'home', [{ recommender: 'popular' }], 1);
    const product = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shopId}&item_id=S1` });
    const response = await get(shopId, 'home', '&extended=true&resize_image=150');
    expect(response.statusCode, response.body).toBe(200);
    const [recommended] = response.json<{ recommends: Record<string, unknown>[] }>().recommends;
    const expected = product.json<Record<string, unknown>>();
    const resized = (expected.image_url_resized as Record<string, string>)['160'];
    expect(recommended).toEqual({
      ...expected,
      url: 'https://shop.example/p/S1?recommended_by=dynamic&recommended_code=home',
      url_handle: '/p/S1?recommended_by=dynamic&recommended_code=home',
      picture: resized,
      image_url: resized,
    });
    expect(typeof recommended!.id).toBe('string');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    // The mapped product text is kept per product, block and size: asked again, the same bytes;
    // another block or size maps it afresh.
    expect((await get(shopId, 'home', '&extended=true&resize_image=150')).body).toBe(response.body);
    await putBlock(shopId, 'cart', [{ recommender: 'popular' }], 1);
    const other = await get(shopId, 'cart', '&extended=true');
    expect(other.json<{ recommends: Record<string, unknown>[] }>().recommends).toEqual([
      {
        ...expected,
        id: 'S1',
        url: 'https://shop.example/p/S1?recommended_by=dynamic&recommended_code=cart',
        url_handle: '/p/S1?recommended_by=dynamic&recommended_code=cart',
      },
    ]);
    for (const off of ['0', 'false', '']) {
      expect(await ids(shopId, 'home', `&extended=${off}`)).toEqual(['S1']);
    }
  });
});
