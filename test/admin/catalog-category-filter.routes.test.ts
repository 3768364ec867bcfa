import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../helpers/feed-builder.js';

interface Page {
  items: Array<{ id: string; category_ids: string[] }>;
  next_cursor: string | null;
}

const categories = [
  { id: 'shoes', name: 'Shoes' },
  { id: 'sale', name: 'Sale' },
  { id: 'kids', name: 'Kids', parentId: 'shoes' },
];

function offer(id: string, categoryIds: string[], name = `Thing ${id}`): FeedOfferSpec {
  return { id, available: true, url: `https://shop.example/${id}`, price: 10, currencyId: 'RUB', categoryIds, name };
}

describe.each(TEST_DIALECTS)('the product browser’s category filter on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let otherShopId: string;

  const ids = async (shop: string, query: string, limit = 2): Promise<string[]> => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: LightMyRequestResponse = await t.app.inject({
        method: 'GET',
        url: `/admin/v1/shops/${shop}/products?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        headers: t.adminHeaders,
      });
      expect(res.statusCode, res.body).toBe(200);
      const page: Page = res.json<Page>();
      seen.push(...page.items.map((p) => p.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    return seen;
  };
  const rowsOf = async (shop: string) =>
    t.db.db
      .selectFrom('catalog_product_categories')
      .select(['generation', 'category_id', 'product_id'])
      .where('shop_id', '=', shop)
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shopId = (await createShopFixture(t.app.services)).shopId;
    otherShopId = (await createShopFixture(t.app.services)).shopId;
    await importTestFeed(t.app.services, shopId, {
      categories,
      offers: [
        offer('p-1', ['shoes', 'sale']),
        offer('p-2', ['kids']),
        offer('p-3', ['sale', 'sale'], 'Red boots'),
        offer('p-4', ['shoes']),
        offer('p-5', ['shoes', 'sale'], 'Red sandals'),
        offer('p-6', []),
      ],
    });
    await importTestFeed(t.app.services, otherShopId, { categories, offers: [offer('p-1', ['shoes']), offer('q-9', ['sale'])] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the products listed directly in a category, by offer id, each once across pages', async () => {
    expect(await ids(shopId, 'category=shoes')).toEqual(['p-1', 'p-4', 'p-5']);
    expect(await ids(shopId, 'category=sale')).toEqual(['p-1', 'p-3', 'p-5']);
    expect(await ids(shopId, 'category=kids')).toEqual(['p-2']);
    expect(await ids(otherShopId, 'category=sale')).toEqual(['q-9']);
  });

  it('combines the category with the text filter and availability', async () => {
    expect(await ids(shopId, 'category=sale&query=red')).toEqual(['p-3', 'p-5']);
    expect(await ids(shopId, 'category=sale&query=p-1')).toEqual(['p-1']);
    expect(await ids(shopId, 'category=sale&available=false')).toEqual([]);
  });

  it('follows a new import, and deletes the category rows of the generation it replaces', async () => {
    const before = await rowsOf(shopId);
    expect(before).toHaveLength(7);
    await importTestFeed(t.app.services, shopId, {
      categories,
      offers: [offer('p-1', ['sale']), offer('p-4', ['shoes']), offer('p-7', ['shoes', 'kids'])],
    });
    expect(await ids(shopId, 'category=shoes')).toEqual(['p-4', 'p-7']);
    expect(await ids(shopId, 'category=sale')).toEqual(['p-1']);
    const after = await rowsOf(shopId);
    expect(after).toHaveLength(4);
    expect(new Set(after.map((r) => Number(r.generation))).size).toBe(1);
    expect(Number(after[0]!.generation)).toBeGreaterThan(Number(before[0]!.generation));
    expect((await rowsOf(otherShopId)).map((r) => `${r.category_id}:${r.product_id}`).sort()).toEqual(['sale:q-9', 'shoes:p-1']);
  });
});
