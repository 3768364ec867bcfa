import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../../helpers/feed-builder.js';

const feed = (ids: string[], vendor: string): FeedSpec => ({
  categories: [{ id: '1', name: 'Обувь' }],
  offers: ids.map((id) => ({
    id,
    available: true,
    url: `https://shop.example/p/${id}`,
    price: '990',
    currencyId: 'RUB',
    categoryIds: ['1'],
    name: `Товар ${id}`,
    vendor,
  })),
});

const QUERY = { filters: {}, page: 1, limit: 20 };

describe.each(TEST_DIALECTS)('listing service on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the generation served now: a landed import replaces the facet index at once', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, feed(['a-1', 'a-2'], 'Acme'));
    const first = await t.app.services.listing.list(shop, QUERY);
    expect(first.products.map((p) => p.id)).toEqual(['a-1', 'a-2']);
    expect(first.brands).toEqual([{ name: 'Acme', count: 2 }]);

    await importTestFeed(t.app.services, shopId, feed(['b-1'], 'Beta'));
    const second = await t.app.services.listing.list(shop, QUERY);
    expect(second.total).toBe(1);
    expect(second.products.map((p) => p.id)).toEqual(['b-1']);
    expect(second.brands).toEqual([{ name: 'Beta', count: 1 }]);
  });

  it('never shows another shop’s products, and lists nothing before the first import', async () => {
    const one = await createShopFixture(t.app.services);
    const two = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, one.shopId, feed(['x-1'], 'Acme'));
    expect(await t.app.services.listing.list(two.shop, QUERY)).toMatchObject({ total: 0, products: [], brands: [] });
    await importTestFeed(t.app.services, two.shopId, feed(['y-1'], 'Acme'));
    expect((await t.app.services.listing.list(two.shop, QUERY)).products.map((p) => p.id)).toEqual(['y-1']);
    await expect(t.app.services.listing.category(two.shop, 'nope', QUERY)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('finds a category by its feed id, or else by the last path segment of its URL; the id wins', async () => {
    const { shop, shopId } = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, shopId, {
      categories: [
        { id: 'shoes', name: 'Shoes', url: 'https://shop.example/c/footwear' },
        { id: '2', name: 'Boots', parentId: 'shoes', url: 'https://shop.example/c/footwear/shoes/' },
        { id: '3', name: 'T-shirts', url: 'https://shop.example/c/t-shirts?ref=menu' },
      ],
      offers: [
        {
          id: 'b-1',
          available: true,
          url: 'https://shop.example/p/b-1',
          price: '990',
          currencyId: 'RUB',
          categoryIds: ['2'],
          name: 'Boot',
        },
        { id: 't-1', available: true, url: 'https://shop.example/p/t-1', price: '490', currencyId: 'RUB', categoryIds: ['3'], name: 'Tee' },
      ],
    });
    const bySlug = await t.app.services.listing.category(shop, 't-shirts', QUERY);
    expect(bySlug.category.externalId).toBe('3');
    expect(bySlug.products.map((p) => p.id)).toEqual(['t-1']);
    // `shoes` is a feed id and another category's slug: the id wins.
    expect((await t.app.services.listing.category(shop, 'shoes', QUERY)).category.externalId).toBe('shoes');
    expect((await t.app.services.listing.category(shop, 'footwear', QUERY)).category.externalId).toBe('shoes');
    await expect(t.app.services.listing.category(shop, 'c', QUERY)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
