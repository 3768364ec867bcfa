import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildProductSearchIndex } from '../../../src/db/search-index.js';
import type { Database } from '../../../src/db/types.js';
import type { SearchType } from '../../../src/modules/search/domain/query.js';
import type { SearchInput, SearchService } from '../../../src/modules/search/search.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../../helpers/feed-builder.js';
import { ids, insertProducts, serveGeneration, searchStack, type SearchStack } from './search-fixture.js';

describe.each(TEST_DIALECTS)('product search on %s', (dialect) => {
  let db: TestDb;
  let stack: SearchStack;
  let search: SearchService;
  let shop: ShopFixture;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    stack = searchStack(db);
    search = stack.services.search;
    shop = await createShopFixture(stack.services);
  });

  const find = async (query: string, type: SearchType = 'full_search', extra: Partial<SearchInput> = {}) =>
    search.search({ shop: shop.shop, type, query, limit: 20, ...extra });

  describe('matching', () => {
    beforeEach(async () => {
      await insertProducts(db, shop.shopId, 1, [
        { id: 'phone-1', name: 'Смартфон Samsung Galaxy S24', vendor: 'Samsung', model: 'SM-S921B', vendorCode: 'SGS24-BLK' },
        { id: 'phone-2', name: 'Смартфон Apple iPhone 15 Pro', vendor: 'Apple', model: 'A3102', barcode: '0194253401234' },
        { id: 'case-1', name: 'Чехол для iPhone-15, чёрный', vendor: 'Deppa' },
        { id: 'tree-1', name: 'Ёлка искусственная 1.5 м', vendor: 'Триумф' },
        { id: 'tv-1', name: 'Телевизор', vendor: 'Samsung', model: 'UE55' },
      ]);
      await serveGeneration(db, shop.shopId, 1);
    });

    it('pages and filters the matches, and logs what the text found whatever the filters', async () => {
      const all = ids((await find('смартфон')).products);
      expect(all).toHaveLength(2);
      const second = await find('смартфон', 'full_search', { limit: 1, page: 2 });
      expect({ total: second.total, ids: ids(second.products) }).toEqual({ total: 2, ids: [all[1]] });
      const filtered = await find('смартфон', 'full_search', { filters: { brands: ['APPLE'] } });
      expect({ total: filtered.total, ids: ids(filtered.products) }).toEqual({ total: 1, ids: ['phone-2'] });
      expect(filtered.brands).toEqual([
        { name: 'Apple', count: 1 },
        { name: 'Samsung', count: 1 },
      ]);
      const nothing = await find('смартфон', 'full_search', { filters: { brands: ['Nokia'] } });
      expect(nothing.total).toBe(0);
      const logged = await db.db
        .selectFrom('search_queries')
        .select('results')
        .where('shop_id', '=', shop.shopId)
        .orderBy('time')
        .execute();
      expect(logged.map((row) => Number(row.results))).toEqual([2, 2, 2, 2]);
    });

    it('finds a product by a word of its name, whatever the case', async () => {
      expect(ids((await find('GALAXY')).products)).toEqual(['phone-1']);
      expect(ids((await find('galaxy')).products)).toEqual(['phone-1']);
    });

    it('matches Cyrillic words case-insensitively', async () => {
      expect(ids((await find('СМАРТФОН')).products).sort()).toEqual(['phone-1', 'phone-2']);
      expect(ids((await find('телевизор')).products)).toEqual(['tv-1']);
    });

    it('reads ё as е on both sides', async () => {
      expect(ids((await find('елка')).products)).toEqual(['tree-1']);
      expect(ids((await find('ёлка')).products)).toEqual(['tree-1']);
      expect(ids((await find('черный')).products)).toEqual(['case-1']);
    });

    it('needs every word of a full search', async () => {
      expect(ids((await find('смартфон apple')).products)).toEqual(['phone-2']);
      expect(ids((await find('смартфон nokia')).products)).toEqual([]);
    });

    it('does not match the start of a word in a full search', async () => {
      expect((await find('смартф')).total).toBe(0);
    });

    it('reads the last word of an instant search as a prefix, the others as whole words', async () => {
      expect(ids((await find('смартфон gal', 'instant_search')).products)).toEqual(['phone-1']);
      expect(ids((await find('смартф', 'instant_search')).products).sort()).toEqual(['phone-1', 'phone-2']);
      // "смартф" is not the last word here, so it must be whole.
      expect((await find('смартф galaxy', 'instant_search')).total).toBe(0);
    });

    it('finds products by vendor, model, vendor code and barcode', async () => {
      expect(ids((await find('deppa')).products)).toEqual(['case-1']);
      expect(ids((await find('a3102')).products)).toEqual(['phone-2']);
      expect(ids((await find('SGS24-BLK')).products)).toEqual(['phone-1']);
      expect(ids((await find('0194253401234')).products)).toEqual(['phone-2']);
    });

    it('splits words at punctuation as the index does', async () => {
      // "iPhone-15" and "iPhone 15" are the same two words; "1.5" is "1" and "5".
      expect(ids((await find('iphone-15')).products).sort()).toEqual(['case-1', 'phone-2']);
      expect(ids((await find('iphone 15 чехол')).products)).toEqual(['case-1']);
      expect(ids((await find('ёлка 1.5')).products)).toEqual(['tree-1']);
    });

    it('splits at brackets, slashes, backslashes, underscores and typographic marks alike', async () => {
      await insertProducts(db, shop.shopId, 1, [
        { id: 'cable-1', name: 'Кабель USB-C/Lightning [2м] \\ black_edition «Про»', vendorCode: 'A(1)^B' },
      ]);
      for (const query of ['usb c lightning', '2м', 'black edition', 'про', 'a 1 b']) {
        expect(ids((await find(query)).products)).toEqual(['cable-1']);
      }
    });

    it('never matches the shop’s own scope token', async () => {
      const token = `s${shop.shopId}g1`;
      expect((await find(token.slice(0, 12), 'instant_search')).total).toBe(0);
      expect((await find(token)).total).toBe(0);
      expect((await find(`#${token}`)).total).toBe(0);
    });

    it('finds nothing for a word no product has, or for a query without letters or digits', async () => {
      expect(await find('холодильник')).toMatchObject({ query: 'холодильник', total: 0, products: [] });
      expect(await find('!!! ???')).toMatchObject({ query: '!!! ???', total: 0, products: [] });
    });

    it('is not fooled by FTS or tsquery syntax in the query', async () => {
      for (const query of ['samsung OR apple', '"samsung', "samsung'", 'samsung & !apple', 'name:samsung', '*', 'NEAR(a b)']) {
        await expect(find(query, 'instant_search')).resolves.toBeDefined();
      }
      expect(ids((await find('samsung OR apple')).products)).toEqual([]);
    });

    it('ranks a match in the name above a match in the vendor', async () => {
      await insertProducts(db, shop.shopId, 1, [{ id: 'book-1', name: 'Книга о Samsung', vendor: 'Эксмо' }]);
      const result = await find('samsung');
      expect(result.total).toBe(3);
      const order = ids(result.products);
      // tv-1 has Samsung only as its vendor.
      expect(order.indexOf('tv-1')).toBe(2);
    });

    it('returns at most `limit` products and counts them all', async () => {
      const result = await find('смартфон', 'full_search', { limit: 1 });
      expect(result.total).toBe(2);
      expect(result.products).toHaveLength(1);
    });

    it('answers products in the Product shape of GET /products/get', async () => {
      const [product] = (await find('galaxy')).products;
      expect(product).toMatchObject({
        id: 'phone-1',
        uniqid: 'phone-1',
        name: 'Смартфон Samsung Galaxy S24',
        brand: 'Samsung',
        model: 'SM-S921B',
        vendor_code: 'SGS24-BLK',
        price: 100,
        price_full: 100,
        currency: '₽',
        widgetable: true,
        ignored: false,
      });
      expect(JSON.parse((await stack.services.products.productJson(shop.shop, 'phone-1')).toString('utf8'))).toEqual(product);
    });
  });

  describe('through the feed import', () => {
    const offer = (id: string, name: string, extra: Partial<FeedOfferSpec> = {}): FeedOfferSpec => ({
      id,
      available: true,
      url: `https://shop.example/p/${id}`,
      price: '10',
      categoryIds: ['1'],
      name,
      ...extra,
    });
    const feed = (offers: FeedOfferSpec[]) => ({ categories: [{ id: '1', name: 'Посуда' }], offers });

    it('finds what an import brought, and only what the latest import brought', async () => {
      await importTestFeed(stack.services, shop.shopId, feed([offer('p1', 'Чайник электрический'), offer('p2', 'Сковорода')]));
      expect(ids((await find('чайник')).products)).toEqual(['p1']);
      await importTestFeed(stack.services, shop.shopId, feed([offer('p3', 'Чайник заварочный'), offer('p2', 'Сковорода гриль')]));
      expect(ids((await find('чайник')).products)).toEqual(['p3']);
      expect(ids((await find('сковорода гриль')).products)).toEqual(['p2']);
      expect((await find('электрический')).total).toBe(0);
    });

    it('leaves out the offers an import marks ignored, unavailable or without a price', async () => {
      await importTestFeed(
        stack.services,
        shop.shopId,
        feed([
          offer('ok', 'Кастрюля'),
          offer('ign', 'Кастрюля большая', { ignored: true }),
          offer('out', 'Кастрюля малая', { available: false }),
          offer('nop', 'Кастрюля средняя', { price: undefined }),
        ]),
      );
      expect(ids((await find('кастрюля')).products)).toEqual(['ok']);
    });
  });

  describe('what is searchable', () => {
    it('leaves out products that are not widgetable, ignored or unavailable', async () => {
      await insertProducts(db, shop.shopId, 1, [
        { id: 'ok', name: 'Kettle steel' },
        { id: 'hidden', name: 'Kettle glass', widgetable: false },
        { id: 'ignored', name: 'Kettle red', ignored: true },
        { id: 'gone', name: 'Kettle white', available: false },
      ]);
      await serveGeneration(db, shop.shopId, 1);
      expect(ids((await find('kettle')).products)).toEqual(['ok']);
    });

    it('never finds another shop’s products', async () => {
      const other = await createShopFixture(stack.services);
      await insertProducts(db, other.shopId, 1, [{ id: 'theirs', name: 'Blender' }]);
      await serveGeneration(db, other.shopId, 1);
      await insertProducts(db, shop.shopId, 1, [{ id: 'ours', name: 'Toaster' }]);
      await serveGeneration(db, shop.shopId, 1);
      expect((await find('blender')).total).toBe(0);
      expect(ids((await find('toaster')).products)).toEqual(['ours']);
    });

    it('searches the served generation only: neither a staged one nor an older one', async () => {
      await insertProducts(db, shop.shopId, 1, [{ id: 'old', name: 'Vacuum cleaner old' }]);
      await insertProducts(db, shop.shopId, 2, [{ id: 'new', name: 'Vacuum cleaner new' }]);
      await serveGeneration(db, shop.shopId, 1);
      expect(ids((await find('vacuum')).products)).toEqual(['old']);
      await serveGeneration(db, shop.shopId, 2);
      expect(ids((await find('vacuum')).products)).toEqual(['new']);
    });

    it('finds nothing while the shop has no catalog', async () => {
      expect(await find('anything')).toMatchObject({ query: 'anything', total: 0, products: [] });
    });

    it('follows deletes and updates of catalog rows', async () => {
      await insertProducts(db, shop.shopId, 1, [
        { id: 'a', name: 'Lamp desk' },
        { id: 'b', name: 'Lamp floor' },
      ]);
      await serveGeneration(db, shop.shopId, 1);
      await db.db.deleteFrom('catalog_products').where('shop_id', '=', shop.shopId).where('id', '=', 'a').execute();
      expect(ids((await find('lamp')).products)).toEqual(['b']);
      await db.db
        .updateTable('catalog_products')
        .set({ name: 'Chandelier' })
        .where('shop_id', '=', shop.shopId)
        .where('id', '=', 'b')
        .execute();
      expect((await find('lamp')).total).toBe(0);
      expect(ids((await find('chandelier')).products)).toEqual(['b']);
      await db.db.updateTable('catalog_products').set({ ignored: 1 }).where('shop_id', '=', shop.shopId).execute();
      expect((await find('chandelier')).total).toBe(0);
      await db.db.updateTable('catalog_products').set({ ignored: 0 }).where('shop_id', '=', shop.shopId).execute();
      expect(ids((await find('chandelier')).products)).toEqual(['b']);
    });

    it('rebuilds the index from the catalog rows with the same answers', async () => {
      await insertProducts(db, shop.shopId, 1, [
        { id: 'a', name: 'Mixer planetary' },
        { id: 'b', name: 'Mixer hand', ignored: true },
      ]);
      await serveGeneration(db, shop.shopId, 1);
      await db.db.transaction().execute((trx) => rebuildProductSearchIndex<Database>(trx, dialect));
      expect(ids((await find('mixer')).products)).toEqual(['a']);
    });
  });
});

describe.each(TEST_DIALECTS)('the search index kept by triggers on %s', (dialect) => {
  it('holds exactly the searchable rows after inserts, updates and deletes, and nothing of a deleted generation', async () => {
    const db = await createTestDb(dialect);
    try {
      const { services } = searchStack(db);
      const { shopId } = await createShopFixture(services);
      /** Index entries: all, of one generation, or holding a word. */
      const count = async (filter: { generation?: number; word?: string } = {}) => {
        let query;
        if (dialect === 'sqlite') {
          const match = filter.generation !== undefined ? `scope : "s${shopId}g${filter.generation}"` : filter.word;
          query = sql<{ n: number }>`select count(*) as n from catalog_products_fts
            ${match === undefined ? sql`` : sql`where catalog_products_fts match ${match}`}`;
        } else {
          const where =
            filter.generation !== undefined
              ? sql`where generation = ${filter.generation}`
              : filter.word !== undefined
                ? sql`where document @@ to_tsquery('simple', ${filter.word})`
                : sql``;
          query = sql<{ n: number }>`select count(*) as n from catalog_products_search ${where}`;
        }
        return Number((await query.execute(db.db)).rows[0]!.n);
      };
      await insertProducts(db, shopId, 1, [
        { id: 'a', name: 'Alpha' },
        { id: 'b', name: 'Beta', ignored: true },
        { id: 'c', name: 'Gamma', widgetable: false },
      ]);
      await insertProducts(db, shopId, 2, [{ id: 'a', name: 'Alpha two' }]);
      expect(await count()).toBe(2);
      await db.db.updateTable('catalog_products').set({ widgetable: 1 }).where('id', '=', 'c').execute();
      await db.db.updateTable('catalog_products').set({ name: 'Alef' }).where('id', '=', 'a').where('generation', '=', 1).execute();
      expect(await count()).toBe(3);
      expect(await count({ word: 'alpha' })).toBe(1);
      expect(await count({ word: 'alef' })).toBe(1);
      await db.db.deleteFrom('catalog_products').where('generation', '=', 1).execute();
      expect(await count()).toBe(1);
      expect(await count({ generation: 1 })).toBe(0);
      expect(await count({ word: 'gamma' })).toBe(0);
      expect(await count({ word: 'alef' })).toBe(0);
    } finally {
      await db.cleanup();
    }
  });
});
