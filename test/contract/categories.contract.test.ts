import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../src/app.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';
import { catalogFeed } from './catalog-fixtures.js';
import { fill, type Json, type Vars } from './harness.js';

/**
 * GET /products/categories and GET /products/not_widgetable (interface.md endpoints 9
 * and 14; contract-notes "Secrets and errors") on both databases, against the catalog of
 * catalog-fixtures.ts imported from a feed. Trees are compared as nested external ids:
 * `1(2(3),6),4,5(7)`.
 */

interface TreeNode {
  id: number;
  external_id: string;
  name: string;
  url: string | null;
  parent_id: number | null;
  parent_external_id: string | null;
  children: TreeNode[];
}

function shape(nodes: readonly TreeNode[]): string {
  return nodes.map((n) => (n.children.length > 0 ? `${n.external_id}(${shape(n.children)})` : n.external_id)).join(',');
}

const FULL = '1(2(3),6),4,5(7)';

const TREE_CASES: ReadonlyArray<readonly [string, string, string]> = [
  ['no parameters: the whole tree (default depth 10)', '', FULL],
  ['depth=0: roots only', '&depth=0', '1,4,5'],
  ['depth=1', '&depth=1', '1(2,6),4,5(7)'],
  ['depth above the bound is served as the deepest', '&depth=100000', FULL],
  ['an empty depth is the default', '&depth=', FULL],
  ['exclude removes whole subtrees', '&exclude=2,5', '1(6),4'],
  ['exclude takes an array too, and ignores blanks and unknown ids', '&exclude[]=2&exclude[]=%20&exclude[]=nope', '1(6),4,5(7)'],
  ['only_discount keeps discounted subtrees and their ancestors', '&only_discount=1', '1(2(3)),4,5(7)'],
  ['only_discount=false is no filter', '&only_discount=false', FULL],
  ['only_discount counts subtrees below the depth cut', '&only_discount=true&depth=0', '1,4,5'],
  ['locations=msk (sku-3 is sold everywhere)', '&locations=msk', '1(2(3)),4'],
  ['locations=spb', '&locations=spb', FULL],
  ['locations of no product → nothing', '&locations=nowhere', ''],
  ['exclude with only_discount', '&exclude=1&only_discount=1', '4,5(7)'],
  // Sneakers(3) has a discounted product (sku-1, msk) and one in spb (sku-2), but none that is both.
  ['only_discount with locations=spb: one product must be both', '&only_discount=1&locations=spb', '1(2),4,5(7)'],
  ['only_discount with locations=msk', '&only_discount=1&locations=msk', '1(2(3)),4'],
  ['only_discount with locations of no discounted product → nothing', '&only_discount=1&locations=nowhere', ''],
];

const ERROR_CASES: ReadonlyArray<{ name: string; url: string; status: number; message: string }> = [
  {
    name: 'categories: shop_id absent → 401',
    url: '/products/categories?shop_secret={secret}',
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'categories: shop_id malformed → 422',
    url: '/products/categories?shop_id=zz&shop_secret={secret}',
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'categories: unknown shop → 404',
    url: '/products/categories?shop_id={unknown_shop}&shop_secret={secret}',
    status: 404,
    message: 'Shop not found',
  },
  { name: 'categories: secret absent → 401', url: '/products/categories?shop_id={shop}', status: 401, message: 'Invalid secret key' },
  {
    name: 'categories: wrong secret → 401',
    url: '/products/categories?shop_id={shop}&shop_secret=wrong',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'categories: inactive shop → 403',
    url: '/products/categories?shop_id={inactive_shop}&shop_secret={inactive_secret}',
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'categories: negative depth → 422',
    url: '/products/categories?shop_id={shop}&shop_secret={secret}&depth=-1',
    status: 422,
    message: 'Parameter `depth` must be an integer of at least 0.',
  },
  {
    name: 'categories: depth not an integer → 422',
    url: '/products/categories?shop_id={shop}&shop_secret={secret}&depth=2.5',
    status: 422,
    message: 'Parameter `depth` must be an integer of at least 0.',
  },
  {
    name: 'categories: an exclude id of 256 characters → 422',
    url: `/products/categories?shop_id={shop}&shop_secret={secret}&exclude=${'x'.repeat(256)}`,
    status: 422,
    message: 'Parameter `exclude` must hold ids of at most 255 characters.',
  },
  {
    name: 'categories: 1001 locations → 422',
    url: `/products/categories?shop_id={shop}&shop_secret={secret}&locations=${Array.from({ length: 1001 }, (_, i) => i).join(',')}`,
    status: 422,
    message: 'Parameter `locations` must have at most 1000 ids.',
  },
  {
    name: 'categories: POST → 405',
    url: '/products/categories?shop_id={shop}&shop_secret={secret}',
    status: 405,
    message: 'Method POST is not allowed for this endpoint.',
  },
  {
    name: 'not_widgetable: shop_id absent → 401',
    url: '/products/not_widgetable?shop_secret={secret}',
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'not_widgetable: shop_id malformed → 422',
    url: '/products/not_widgetable?shop_id=1&shop_secret={secret}',
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'not_widgetable: unknown shop → 404',
    url: '/products/not_widgetable?shop_id={unknown_shop}&shop_secret={secret}',
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'not_widgetable: secret absent → 401',
    url: '/products/not_widgetable?shop_id={shop}',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'not_widgetable: wrong secret → 401',
    url: '/products/not_widgetable?shop_id={shop}&shop_secret={inactive_secret}',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'not_widgetable: inactive shop → 403',
    url: '/products/not_widgetable?shop_id={inactive_shop}&shop_secret={inactive_secret}',
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'not_widgetable: limit 0 → 422',
    url: '/products/not_widgetable?shop_id={shop}&shop_secret={secret}&limit=0',
    status: 422,
    message: 'Parameter `limit` must be an integer from 1 to 1000.',
  },
  {
    name: 'not_widgetable: limit 1001 → 422',
    url: '/products/not_widgetable?shop_id={shop}&shop_secret={secret}&limit=1001',
    status: 422,
    message: 'Parameter `limit` must be an integer from 1 to 1000.',
  },
  {
    name: 'not_widgetable: page 0 → 422',
    url: '/products/not_widgetable?shop_id={shop}&shop_secret={secret}&page=0',
    status: 422,
    message: 'Parameter `page` must be an integer from 1 to 1000000.',
  },
];

describe.each(TEST_DIALECTS)('GET /products/categories and /products/not_widgetable contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const shop = await createShopFixture(t.app.services);
    const empty = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shop.shopId, catalogFeed());
    await t.app.services.shops.updateShop(inactive.shopId, { active: false });
    vars = {
      shop: shop.shopId,
      secret: shop.secret,
      empty_shop: empty.shopId,
      empty_secret: empty.secret,
      inactive_shop: inactive.shopId,
      inactive_secret: inactive.secret,
      unknown_shop: 'b'.repeat(30),
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const categories = async (query: string, app: PatronApp = t.app) => {
    const response = await app.inject({
      method: 'GET',
      url: `/products/categories?shop_id=${vars.shop}&shop_secret=${vars.secret}${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return response.json<TreeNode[]>();
  };

  it.each(TREE_CASES)('categories: %s', async (_name, query, expected) => {
    expect(shape(await categories(query))).toBe(expected);
  });

  it('categories: nodes carry internal and external ids of themselves and their parents, with no envelope', async () => {
    const [clothes] = await categories('&depth=1&exclude=4,5');
    const ids = await t.db.db.selectFrom('catalog_category_ids').select(['external_id', 'id']).where('shop_id', '=', vars.shop!).execute();
    const idOf = (external: string) => Number(ids.find((row) => row.external_id === external)?.id);
    expect(clothes).toEqual({
      id: idOf('1'),
      external_id: '1',
      name: 'Clothes',
      url: 'https://shop.example/c/clothes',
      parent_id: null,
      parent_external_id: null,
      children: [
        {
          id: idOf('2'),
          external_id: '2',
          name: 'Shoes',
          url: 'https://shop.example/c/shoes?sort=new',
          parent_id: idOf('1'),
          parent_external_id: '1',
          children: [],
        },
        { id: idOf('6'), external_id: '6', name: 'Hats', url: null, parent_id: idOf('1'), parent_external_id: '1', children: [] },
      ],
    });
  });

  it('categories: a shop without a catalog has an empty tree', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/categories?shop_id=${vars.empty_shop}&shop_secret=${vars.empty_secret}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('not_widgetable: the hidden products with their total, under `data`', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/products/not_widgetable?shop_id=${vars.shop}&shop_secret=${vars.secret}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: {
        total: 2,
        items: [
          {
            uniqid: 'sku-4',
            price: null,
            name: 'Gift card (no price)',
            url: 'https://shop.example/p/sku-4',
            image_url: null,
            image_downloading_error: null,
          },
          {
            uniqid: 'sku-7',
            price: 10,
            name: 'Lost sock',
            url: 'https://shop.example/p/sku-7',
            image_url: 'https://img.shop.example/sku-7.jpg',
            image_downloading_error: null,
          },
        ],
      },
    });
  });

  it('not_widgetable: pages by limit and page, the total counting them all', async () => {
    const page = async (query: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/products/not_widgetable?shop_id=${vars.shop}&shop_secret=${vars.secret}${query}` })
      ).json<{
        data: { total: number; items: Array<{ uniqid: string }> };
      }>().data;
    expect(await page('&limit=1')).toMatchObject({ total: 2, items: [{ uniqid: 'sku-4' }] });
    expect(await page('&limit=1&page=2')).toMatchObject({ total: 2, items: [{ uniqid: 'sku-7' }] });
    expect(await page('&limit=1&page=3')).toEqual({ total: 2, items: [] });
  });

  it('not_widgetable: a shop without a catalog has none', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/not_widgetable?shop_id=${vars.empty_shop}&shop_secret=${vars.empty_secret}`,
    });
    expect(response.json()).toEqual({ status: 'success', data: { total: 0, items: [] } });
  });

  it.each(ERROR_CASES)('$name', async (row) => {
    const response = await t.app.inject({ method: row.name.includes('POST') ? 'POST' : 'GET', url: fill(row.url, vars) });
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json<Json>()).toEqual({ status: 'error', payload: { message: row.message } });
  });

  describe('the 60 s cache', () => {
    const renameCategory = (externalId: string, name: string) =>
      t.db.db
        .updateTable('catalog_categories')
        .set({ name })
        .where('shop_id', '=', vars.shop!)
        .where('external_id', '=', externalId)
        .execute();
    const booksName = async (query: string, app?: PatronApp) =>
      (await categories(query, app)).find((node) => node.external_id === '4')?.name;

    it('serves a combination from the cache for 60 s, then reads again', async () => {
      expect(await booksName('&depth=3')).toBe('Books');
      await renameCategory('4', 'Books (renamed)');
      t.clock.advance(59_999);
      expect(await booksName('&depth=3')).toBe('Books');
      // Another combination is another entry.
      expect(await booksName('&depth=4')).toBe('Books (renamed)');
      t.clock.advance(1);
      expect(await booksName('&depth=3')).toBe('Books (renamed)');
      await renameCategory('4', 'Books');
    });

    it('keys the combination by value: the order of ids does not matter', async () => {
      expect(await booksName('&exclude=2,5&depth=5')).toBe('Books');
      await renameCategory('4', 'Books (again)');
      expect(await booksName('&exclude=5,2&depth=5')).toBe('Books');
      t.clock.advance(60_000);
      await renameCategory('4', 'Books');
    });

    it('drops the cache when an import lands, in every process sharing the database', async () => {
      const second = await buildApp({ config: t.config, db: t.db, clock: t.clock, logger: false });
      try {
        expect(shape(await categories('&depth=2'))).toBe(FULL);
        expect(shape(await categories('&depth=2', second))).toBe(FULL);
        const feed = catalogFeed();
        await importTestFeed(t.app.services, vars.shop!, {
          ...feed,
          categories: feed.categories!.filter((c) => c.id !== '5' && c.id !== '7'),
        });
        expect(shape(await categories('&depth=2'))).toBe('1(2(3),6),4');
        expect(shape(await categories('&depth=2', second))).toBe('1(2(3),6),4');
      } finally {
        await second.close();
        await importTestFeed(t.app.services, vars.shop!, catalogFeed());
      }
    });
  });
});
