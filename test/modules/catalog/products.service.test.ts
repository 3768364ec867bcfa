import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../src/modules/catalog/domain/product.schema.js';
import * as productsRepo from '../../../src/modules/catalog/products.repo.js';
import { CatalogService } from '../../../src/modules/catalog/catalog.service.js';
import { PRODUCT_READ_BATCH, PRODUCT_VIEW_TTL_MS, SERVED_GENERATION_TTL_MS } from '../../../src/modules/catalog/products.service.js';
import { MAX_IN_LIST } from '../../../src/db/statement-slices.js';
import { hashLink } from '../../../src/modules/images/domain/links.js';
import * as imagesRepo from '../../../src/modules/images/images.repo.js';
import { catalogFeed } from '../../contract/catalog-fixtures.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../../helpers/factories.js';
import { importTestFeed } from '../../helpers/feed-builder.js';
import { item, push } from '../tracking/tracking-fixture.js';

/** ProductsService.viewProducts, the batch that search results go through, with real imports. */
describe.each(TEST_DIALECTS)('ProductsService.viewProducts on %s', (dialect) => {
  let t: TestApp;
  let shop: ShopFixture;
  let generation: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shop = await createShopFixture(t.app.services);
    generation = (await importTestFeed(t.app.services, shop.shopId, catalogFeed())).generation;
  });
  afterAll(async () => {
    await t.close();
  });

  it('maps products in the order given, each with its own categories and locations', async () => {
    const records = await productsRepo.findProducts(t.db.db, shop.shopId, generation, ['sku-6', 'sku-1', 'sku-3']);
    const byId = new Map(records.map((r) => [r.id, r]));
    const ordered = ['sku-6', 'sku-1', 'sku-3'].map((id) => byId.get(id)!);
    const views = await t.app.services.products.viewProducts(shop.shop, generation, ordered);
    expect(views.map((v) => [v.id, v.categories.map((c) => c.id), Object.keys(v.locations)])).toEqual([
      ['sku-6', ['5', '7'], ['spb']],
      ['sku-1', ['1', '2', '3'], ['msk']],
      ['sku-3', ['4', '1', '2'], []],
    ]);
    expect(views[0]).toMatchObject({ price: 12345, price_full: 12345.67, price_full_formatted: '12 345.67 ₽', discount_percent: 38 });
    expect(await t.app.services.products.viewProducts(shop.shop, generation, [])).toEqual([]);
  });

  it("finds served products by id in one statement: ids it lacks are absent, another shop's never read", async () => {
    const other = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, other.shopId, catalogFeed());
    // Three ids run as the statement for four (the last one repeated).
    const found = await productsRepo.findServedProducts(t.db.db, shop.shopId, ['sku-3', 'nope', 'sku-1']);
    expect([...found.keys()].sort()).toEqual(['sku-1', 'sku-3']);
    expect(found.get('sku-1')).toMatchObject({ generation, product: { id: 'sku-1', categoryIds: ['3'] } });
    expect((await productsRepo.findServedProducts(t.db.db, 'f'.repeat(30), ['sku-1'])).size).toBe(0);
    expect((await productsRepo.findServedProducts(t.db.db, shop.shopId, [])).size).toBe(0);
    const tooMany = Array.from({ length: MAX_IN_LIST + 1 }, (_, i) => `sku-${i}`);
    await expect(productsRepo.findServedProducts(t.db.db, shop.shopId, tooMany)).rejects.toThrow(RangeError);
  });

  it('reads the categories of a batch naming more than a thousand of them', async () => {
    const other = await createShopFixture(t.app.services);
    // c0…c999 are roots; c1000…c1499 are children of c0…c499.
    const categories = Array.from({ length: 1500 }, (_, i) => ({
      id: `c${i}`,
      name: `C${i}`,
      ...(i >= 1000 && { parentId: `c${i - 1000}` }),
    }));
    // 30 products of 50 categories each: 1,500 distinct category ids in one batch.
    const offers = Array.from({ length: 30 }, (_, o) => ({
      id: `p${o}`,
      name: `P${o}`,
      url: `https://x.example/p${o}`,
      price: 1,
      categoryIds: Array.from({ length: 50 }, (_, c) => `c${o * 50 + c}`),
    }));
    const landed = await importTestFeed(t.app.services, other.shopId, { categories, offers });
    const records = await productsRepo.findProducts(
      t.db.db,
      other.shopId,
      landed.generation,
      offers.map((o) => o.id),
    );
    const views = await t.app.services.products.viewProducts(other.shop, landed.generation, records);
    const sizes = new Map(views.map((v) => [v.id, v.categories.length]));
    expect(offers.map((o, i) => sizes.get(o.id) === (i < 20 ? 50 : 100))).not.toContain(false);
    const last = views.find((v) => v.id === 'p29')!;
    expect(last.categories.slice(-2)).toEqual([
      expect.objectContaining({ id: 'c499', level: '1' }),
      expect.objectContaining({ id: 'c1499', level: '2', parent_id: 'c499', name_with_parent: 'C499 - C1499' }),
    ]);
  });
});

/** The answer of ProductsService.productJson, parsed. */
async function readProduct(t: TestApp, shop: ShopFixture['shop'], itemId: string): Promise<Product> {
  return JSON.parse((await t.app.services.products.productJson(shop, itemId)).toString('utf8')) as Product;
}

/** Changes a catalog in place, as nothing but a thumbnail coming in does within a generation. */
async function renameProducts(t: TestApp, shopId: string, generation: number, name: string): Promise<void> {
  await t.db.db.updateTable('catalog_products').set({ name }).where('shop_id', '=', shopId).where('generation', '=', generation).execute();
}

describe.each(TEST_DIALECTS)('ProductsService.productJson cache on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const feed = (price: number) => ({
    categories: [{ id: 'c1', name: 'Cups' }],
    offers: [{ id: 'cup', name: 'Cup', url: 'https://x.example/cup', price, categoryIds: ['c1'] }],
  });

  it('answers a re-imported product from the new catalog at once', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(100));
    expect((await readProduct(t, shop, 'cup')).price).toBe(100);
    await importTestFeed(t.app.services, shopId, feed(90));
    expect((await readProduct(t, shop, 'cup')).price).toBe(90);
  });

  it('keeps an answer no longer than PRODUCT_VIEW_TTL_MS within one catalog', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    const { generation } = await importTestFeed(t.app.services, shopId, feed(100));
    expect((await readProduct(t, shop, 'cup')).name).toBe('Cup');
    // A change within the generation (as a thumbnail coming in would be) shows after the TTL.
    await renameProducts(t, shopId, generation, 'Mug');
    expect((await readProduct(t, shop, 'cup')).name).toBe('Cup');
    t.clock.advance(PRODUCT_VIEW_TTL_MS);
    expect((await readProduct(t, shop, 'cup')).name).toBe('Mug');
  });

  it('keeps no answer when PATRON_PRODUCT_CACHE_MB is 0: a change within the catalog shows at once', async () => {
    const uncached = await createTestApp({ dialect, env: { PATRON_PRODUCT_CACHE_MB: '0' } });
    try {
      const { shop, shopId } = await createShopFixture(uncached.app.services);
      const { generation } = await importTestFeed(uncached.app.services, shopId, feed(100));
      expect((await readProduct(uncached, shop, 'cup')).name).toBe('Cup');
      await renameProducts(uncached, shopId, generation, 'Mug');
      expect((await readProduct(uncached, shop, 'cup')).name).toBe('Mug');
    } finally {
      await uncached.close();
    }
  });

  it('counts a product of the served catalog only: one a re-import dropped is NOT_FOUND, one it added is counted', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(100));
    expect(await t.app.services.products.productCounters(shopId, 'cup')).toMatchObject({ triggers: { back_in_stock: 0 } });
    await importTestFeed(t.app.services, shopId, {
      categories: [{ id: 'c1', name: 'Cups' }],
      offers: [{ id: 'plate', name: 'Plate', url: 'https://x.example/plate', price: 50, categoryIds: ['c1'] }],
    });
    await expect(t.app.services.products.productCounters(shopId, 'cup')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await t.app.services.products.productCounters(shopId, 'plate')).toMatchObject({ now: { view: 0 } });
  });

  it('reads the counters asked of many items in one turn together, each its own', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    const offers = ['a', 'b', 'c'].map((id) => ({ id, name: id, url: `https://x.example/${id}`, price: 1, categoryIds: ['c1'] }));
    await importTestFeed(t.app.services, shopId, { categories: [{ id: 'c1', name: 'Cups' }], offers });
    await importTestFeed(t.app.services, other.shopId, { categories: [{ id: 'c1', name: 'Cups' }], offers: offers.slice(0, 1) });
    const { did } = await t.app.services.identity.createDevice(shopId);
    await t.app.services.tracking.recordPush(push(shopId, did, 'view', { items: [item('b')] }));
    const asked = [...['a', 'b', 'c', 'zz'].map((id) => ({ shopId, id })), ...['a', 'b'].map((id) => ({ shopId: other.shopId, id }))];
    const answers = await Promise.allSettled(asked.map(({ shopId: shop, id }) => t.app.services.products.productCounters(shop, id)));
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.now.view : (a.reason as { code: string }).code))).toEqual([
      0,
      1,
      0,
      'NOT_FOUND',
      0,
      'NOT_FOUND',
    ]);
  });

  it('answers NOT_FOUND for a product the catalog lacks', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(100));
    await expect(readProduct(t, shop, 'plate')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  /** The catalog service of another process on the same database: its landings are not announced here. */
  const otherProcess = () =>
    new CatalogService({ db: t.db, clock: t.clock, shops: t.app.services.shops, jobs: t.app.services.jobs, config: t.config });

  it('answers a cached product from the generation it last read for at most SERVED_GENERATION_TTL_MS after another process lands an import', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(100));
    expect((await readProduct(t, shop, 'cup')).price).toBe(100);
    await importTestFeed({ catalog: otherProcess() }, shopId, feed(90));
    t.clock.advance(SERVED_GENERATION_TTL_MS - 1);
    expect((await readProduct(t, shop, 'cup')).price).toBe(100);
    t.clock.advance(1);
    expect((await readProduct(t, shop, 'cup')).price).toBe(90);
    // The read that found the new generation is what the cache answers from now.
    expect((await readProduct(t, shop, 'cup')).price).toBe(90);
  });

  it('reads a product it has no answer for from the catalog served now, whoever landed it', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(100));
    expect((await readProduct(t, shop, 'cup')).price).toBe(100);
    const withPlate = {
      ...feed(90),
      offers: [...feed(90).offers, { id: 'plate', name: 'Plate', url: 'https://x.example/plate', price: 5, categoryIds: ['c1'] }],
    };
    await importTestFeed({ catalog: otherProcess() }, shopId, withPlate);
    expect((await readProduct(t, shop, 'plate')).price).toBe(5);
    // That read saw the new generation, so the older answer of `cup` is not served any more.
    expect((await readProduct(t, shop, 'cup')).price).toBe(90);
    await importTestFeed({ catalog: otherProcess() }, shopId, feed(80));
    // A product another process's catalog dropped: its answer is served within the bound, then NOT_FOUND.
    expect((await readProduct(t, shop, 'plate')).price).toBe(5);
    t.clock.advance(SERVED_GENERATION_TTL_MS);
    await expect(readProduct(t, shop, 'plate')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await readProduct(t, shop, 'cup')).price).toBe(80);
  });

  it('reads the misses of one turn together, each shop from its own catalog, beyond one batch', async () => {
    const shops = [await createShopFixture(t.app.services), await createShopFixture(t.app.services)];
    const ids = Array.from({ length: PRODUCT_READ_BATCH + 5 }, (_, i) => `p${i}`);
    for (const [index, { shopId }] of shops.entries()) {
      await importTestFeed(t.app.services, shopId, {
        categories: [{ id: 'c1', name: 'Cups' }],
        // The second shop's catalog lacks every third product.
        offers: ids
          .filter((_, i) => index === 0 || i % 3 !== 0)
          .map((id) => ({
            id,
            name: id,
            url: `https://x.example/${id}`,
            price: 1000 * (index + 1) + Number(id.slice(1)),
            categoryIds: ['c1'],
          })),
      });
    }
    const asked = shops.flatMap(({ shop }, index) => ids.map((id) => ({ shop, index, id })));
    const answers = await Promise.allSettled(asked.map(({ shop, id }) => readProduct(t, shop, id)));
    for (const [n, { index, id }] of asked.entries()) {
      const answer = answers[n]!;
      const i = Number(id.slice(1));
      if (index === 1 && i % 3 === 0) {
        expect(answer).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
        continue;
      }
      expect(answer).toMatchObject({ status: 'fulfilled', value: { id, price: 1000 * (index + 1) + i } });
    }
  });

  it('keeps answers apart by the shop currency they show', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services, { currency: 'RUB' });
    await importTestFeed(t.app.services, shopId, feed(100));
    expect(await readProduct(t, shop, 'cup')).toMatchObject({ currency: '₽', price_formatted: '100 ₽' });
    expect(await readProduct(t, { ...shop, currency: 'USD' }, 'cup')).toMatchObject({ currency: '$', price_formatted: '100 $' });
  });

  it('shows the thumbnails of the first picture, also for a product staged before picture hashes were stored', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    const picture = (id: string) => `https://img.example/${id}.jpg`;
    const offer = (id: string) => ({
      id,
      name: id,
      url: `https://x.example/${id}`,
      price: 10,
      categoryIds: ['c1'],
      pictures: [picture(id)],
    });
    const { generation } = await importTestFeed(t.app.services, shopId, {
      categories: [{ id: 'c1', name: 'Cups' }],
      offers: [offer('new'), offer('old'), offer('pending')],
    });
    const now = t.clock.now();
    const done = [picture('new'), picture('old')];
    await imagesRepo.registerSeen(
      t.db.db,
      shopId,
      [...done, picture('pending')].map((link) => ({ hash: hashLink(link), link })),
      now,
    );
    for (const link of done) await imagesRepo.markDone(t.db.db, shopId, hashLink(link), now);
    await t.db.db
      .updateTable('catalog_products')
      .set({ picture_hash: null })
      .where('shop_id', '=', shopId)
      .where('generation', '=', generation)
      .where('id', '=', 'old')
      .execute();
    for (const id of ['new', 'old']) {
      const resized = (await readProduct(t, shop, id)).image_url_resized as Record<string, string> | null;
      expect(resized?.['120']).toBe(`${t.config.publicUrl}/images/${shopId}/${hashLink(picture(id))}/120.jpg`);
      expect(resized?.original).toBe(picture(id));
    }
    expect((await readProduct(t, shop, 'pending')).image_url_resized).toMatchObject({ 520: picture('pending') });
  });
});

describe.each(TEST_DIALECTS)('ProductsService.categoryTree on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const shape = (nodes: ReadonlyArray<{ external_id: string; children: unknown[] }>): string =>
    nodes
      .map((n) => {
        const children = n.children as Array<{ external_id: string; children: unknown[] }>;
        return children.length > 0 ? `${n.external_id}(${shape(children)})` : n.external_id;
      })
      .join(',');
  const tree = async (shopId: string, locations: string[]) =>
    shape(
      await t.app.services.products.categoryTree(shopId, {
        depth: 10,
        exclude: new Set(),
        onlyDiscount: true,
        locations: new Set(locations),
      }),
    );

  it('with only_discount and locations, lists a category only for a product that is both', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, catalogFeed());
    expect(await tree(shopId, ['spb'])).toBe('1(2),4,5(7)');
    expect(await tree(shopId, ['msk'])).toBe('1(2(3)),4');
  });

  it('derives the discount locations of a catalog landed before they were stored', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const { generation } = await importTestFeed(t.app.services, shopId, catalogFeed());
    await t.db.db
      .updateTable('catalog_categories')
      .set({ discount_location_ids: null })
      .where('shop_id', '=', shopId)
      .where('generation', '=', generation)
      .execute();
    expect(await tree(shopId, ['spb'])).toBe('1(2),4,5(7)');
    expect(await tree(shopId, ['msk'])).toBe('1(2(3)),4');
  });
});
