import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../helpers/feed-builder.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
interface ProductItem {
  id: string;
  name: string | null;
  available: boolean;
  widgetable: boolean;
  category_ids: string[];
  price: number | null;
  picture: string | null;
  picture_error: string | null;
}

/** 40 offers: even ones in category c1, odd in c2; every third out of stock; every fifth without a link or picture (hidden); every fourth "Red". */
function offers(prefix: string): FeedOfferSpec[] {
  return Array.from({ length: 40 }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(2, '0')}`,
    available: i % 3 !== 0,
    // Without a link a product is hidden from the storefront (not widgetable).
    ...(i % 5 === 0 ? {} : { url: `https://shop.example/p/${i}` }),
    price: 100 + i,
    currencyId: 'RUB',
    categoryIds: [i % 2 === 0 ? 'c1' : 'c2'],
    ...(i % 5 === 0 ? {} : { pictures: [`https://img.shop.example/${prefix}-${i}.jpg`] }),
    name: i % 4 === 0 ? `Red thing ${i}` : `Plain thing ${i}`,
  }));
}

const categories = [
  { id: 'c1', name: 'Clothes' },
  { id: 'c2', name: 'Books' },
  ...Array.from({ length: 12 }, (_, i) => ({ id: `c1-${i}`, name: `Sub ${i}`, parentId: 'c1' })),
];

describe.each(TEST_DIALECTS)('admin catalog lists on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let otherShopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shopId = (await createShopFixture(t.app.services)).shopId;
    otherShopId = (await createShopFixture(t.app.services)).shopId;
    await importTestFeed(t.app.services, shopId, { categories, offers: offers('a') });
    await importTestFeed(t.app.services, otherShopId, { categories, offers: offers('z') });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url: `/admin/v1/shops/${url}`, headers: t.adminHeaders });

  /** Every page of a list, following next_cursor. */
  async function walk<T>(path: string, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const response = await get(`${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<Page<T>>();
      items.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { items, pages };
  }

  it('pages through every product of the shop exactly once, by offer id, and never another shop’s', async () => {
    const { items, pages } = await walk<ProductItem>(`${shopId}/products`, 7);
    expect(pages).toBe(6);
    const ids = items.map((p) => p.id);
    expect(ids).toEqual(offers('a').map((o) => o.id));
    expect(items[1]).toMatchObject({ id: 'a-01', price: 101, available: true, category_ids: ['c2'] });
  });

  it('filters by stock, category and text, each page still exactly once', async () => {
    const inStock = await walk<ProductItem>(`${shopId}/products?available=true`, 5);
    expect(inStock.items.map((p) => p.id)).toEqual(
      offers('a')
        .filter((o) => o.available)
        .map((o) => o.id),
    );
    const books = await walk<ProductItem>(`${shopId}/products?category=c2&available=false`, 3);
    expect(books.items.map((p) => p.id)).toEqual(['a-03', 'a-09', 'a-15', 'a-21', 'a-27', 'a-33', 'a-39']);
    const red = await walk<ProductItem>(`${shopId}/products?query=red`, 4);
    expect(red.items.map((p) => p.id)).toEqual(
      offers('a')
        .filter((o) => o.name?.startsWith('Red'))
        .map((o) => o.id),
    );
    const exact = await walk<ProductItem>(`${shopId}/products?query=a-17`, 4);
    expect(exact.items.map((p) => p.id)).toEqual(['a-17']);
    const literal = await walk<ProductItem>(`${shopId}/products?query=${encodeURIComponent('%')}`, 4);
    expect(literal.items).toEqual([]);
  });

  it('lists the hidden products with their pictures, the same set the browser marks hidden', async () => {
    const all = await walk<ProductItem>(`${shopId}/products`, 200);
    const expected = all.items.filter((p) => !p.widgetable).map((p) => p.id);
    expect(expected).toEqual(['a-00', 'a-05', 'a-10', 'a-15', 'a-20', 'a-25', 'a-30', 'a-35']);
    const hidden = await walk<ProductItem>(`${shopId}/products/hidden`, 4);
    expect(hidden.items.map((p) => p.id)).toEqual(expected);
    expect(hidden.items.find((p) => p.id === 'a-05')).toMatchObject({ picture: null, picture_error: null });
  });

  it('answers the category tree a level at a time', async () => {
    const top = await walk<{ external_id: string; has_children: boolean; level: number }>(`${shopId}/categories`, 1);
    expect(top.items).toEqual([
      expect.objectContaining({ external_id: 'c1', has_children: true }),
      expect.objectContaining({ external_id: 'c2', has_children: false }),
    ]);
    const children = await walk<{ external_id: string; parent_external_id: string }>(`${shopId}/categories?parent=c1`, 5);
    expect(children.pages).toBe(3);
    expect(children.items.map((c) => c.external_id)).toEqual(Array.from({ length: 12 }, (_, i) => `c1-${i}`));
    expect(children.items.every((c) => c.parent_external_id === 'c1')).toBe(true);
  });

  it('lists the searches that found nothing, most frequent first, paged', async () => {
    const searches: Array<[string, number]> = [
      ['zebra', 3],
      ['yak', 1],
      ['xylophone', 2],
      ['walrus', 1],
    ];
    for (const [query, times] of searches) {
      for (let i = 0; i < times; i++) {
        const response = await t.app.inject({ method: 'GET', url: `/search?shop_id=${shopId}&type=full_search&search_query=${query}` });
        expect(response.statusCode).toBe(200);
      }
    }
    const page = await walk<{ query: string; quantity: number }>(`${shopId}/search/no-results`, 1);
    expect(page.items).toEqual([
      { query: 'zebra', quantity: 3 },
      { query: 'xylophone', quantity: 2 },
      { query: 'walrus', quantity: 1 },
      { query: 'yak', quantity: 1 },
    ]);
    const other = await get(`${otherShopId}/search/no-results`);
    expect(other.json()).toEqual({ items: [], next_cursor: null });
  });

  it('refuses bounds and cursors it did not give out with 422, and an unknown shop with 404', async () => {
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=x',
      'cursor=%21%21',
      'available=maybe',
      `cursor=${Buffer.from('[1]').toString('base64url')}`,
    ]) {
      expectAdminError(await get(`${shopId}/products?${query}`), 422, 'VALIDATION_FAILED');
    }
    expectAdminError(await get(`${shopId}/categories?cursor=${Buffer.from('["x"]').toString('base64url')}`), 422, 'VALIDATION_FAILED');
    expectAdminError(await get(`${shopId}/products?query=${'q'.repeat(256)}`), 422, 'VALIDATION_FAILED');
    for (const path of ['products', 'products/hidden', 'categories', 'search/no-results']) {
      expectAdminError(await get(`${UNKNOWN_SHOP}/${path}`), 404, 'NOT_FOUND');
    }
  });
});
