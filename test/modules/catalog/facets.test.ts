import { describe, expect, it } from 'vitest';
import { buildFacetIndex, type FacetSource } from '../../../src/modules/catalog/domain/facet-index.js';
import type { ListingFilters } from '../../../src/modules/catalog/domain/facet-filters.js';
import { facetedPage } from '../../../src/modules/catalog/domain/facets.js';
import { categorySlug } from '../../../src/modules/catalog/domain/link-handle.js';
import type { CategoryRecord } from '../../../src/modules/catalog/domain/product-view.js';

const category = (externalId: string, id: number, parentExternalId: string | null = null): CategoryRecord => ({
  externalId,
  id,
  parentExternalId,
  name: `Category ${externalId}`,
  url: null,
});
const CATEGORIES = [category('root', 1), category('child', 2, 'root'), category('leaf', 3, 'child'), category('other', 4)];

const source = (id: string, extra: Partial<FacetSource> = {}): FacetSource => ({
  id,
  vendor: null,
  price: 100_00,
  oldprice: null,
  salesRate: null,
  categoryIds: [],
  locationIds: [],
  params: [],
  ...extra,
});

const SOURCES: FacetSource[] = [
  source('c', {
    vendor: 'Acme',
    price: 300_00,
    oldprice: 400_00,
    categoryIds: ['leaf'],
    params: [{ key: 'color', values: ['red', 'blue'] }],
  }),
  source('a', {
    vendor: 'ACME ',
    price: 100_00,
    salesRate: 5,
    categoryIds: ['child'],
    locationIds: ['msk'],
    params: [{ key: 'color', values: ['red'] }],
  }),
  source('b', { vendor: 'Zeta', price: 200_00, salesRate: 9, categoryIds: ['other', 'unknown'], params: [{ key: 'size', values: [42] }] }),
  source('d', { vendor: null, price: 50_00, oldprice: 100_00, categoryIds: ['root'], locationIds: ['spb'] }),
];
const index = buildFacetIndex(SOURCES, CATEGORIES);
const page = (filters: ListingFilters, offset = 0, limit = 10, order: number[] | null = null, scope?: number) =>
  facetedPage(index, order, filters, { offset, limit }, scope);

describe('facet index', () => {
  it('orders rows by sales rate high to low, none last, then offer id', () => {
    expect(index.ids).toEqual(['b', 'a', 'c', 'd']);
  });

  it('tells brands apart by their trimmed lower-cased name and shows the first spelling', () => {
    expect(index.brands).toEqual(['Zeta', 'ACME']);
  });

  it('gives each product its known categories with their ancestors, once', () => {
    const categoriesOf = (id: string) => {
      const row = index.rowOf.get(id)!;
      return [...index.catList.slice(index.catStart[row], index.catStart[row + 1])].map((i) => CATEGORIES[i]!.externalId);
    };
    expect(categoriesOf('c')).toEqual(['leaf', 'child', 'root']);
    expect(categoriesOf('b')).toEqual(['other']);
  });
});

describe('facetedPage', () => {
  it('without filters lists every row with every facet', () => {
    const result = page({});
    expect(result.total).toBe(4);
    expect(result.ids).toEqual(['b', 'a', 'c', 'd']);
    expect(result.brands).toEqual([
      { name: 'ACME', count: 2 },
      { name: 'Zeta', count: 1 },
    ]);
    expect(result.categories.map((c) => [c.category.externalId, c.count])).toEqual([
      ['root', 3],
      ['child', 2],
      ['leaf', 1],
      ['other', 1],
    ]);
    expect(result.filters).toEqual([
      {
        key: 'color',
        count: 2,
        values: [
          ['red', 2],
          ['blue', 1],
        ],
      },
      { key: 'size', count: 1, values: [['42', 1]] },
    ]);
    expect(result.priceRange).toEqual({ min: 50_00, max: 300_00 });
  });

  it('pages by offset and limit, counting every match', () => {
    expect(page({}, 1, 2)).toMatchObject({ total: 4, ids: ['a', 'c'] });
    expect(page({}, 4, 2)).toMatchObject({ total: 4, ids: [] });
  });

  it('keeps the given order (a search ranking) and skips nothing it is given', () => {
    const order = [index.rowOf.get('d')!, index.rowOf.get('c')!];
    expect(page({}, 0, 10, order)).toMatchObject({ total: 2, ids: ['d', 'c'] });
  });

  it('counts each facet without its own filter, and the others under every filter', () => {
    const result = page({ brands: ['acme'] });
    expect(result).toMatchObject({ total: 2, ids: ['a', 'c'] });
    // The brand facet ignores the brand filter; the price range does not.
    expect(result.brands).toEqual([
      { name: 'ACME', count: 2 },
      { name: 'Zeta', count: 1 },
    ]);
    expect(result.priceRange).toEqual({ min: 100_00, max: 300_00 });
    expect(result.filters).toEqual([
      {
        key: 'color',
        count: 2,
        values: [
          ['red', 2],
          ['blue', 1],
        ],
      },
    ]);
  });

  it('matches a category with everything below it', () => {
    expect(page({ categories: ['child'] })).toMatchObject({ total: 2, ids: ['a', 'c'] });
    expect(page({ categories: ['leaf', 'other'] })).toMatchObject({ total: 2, ids: ['b', 'c'] });
  });

  it('keeps products sold everywhere under a location filter, and counts nothing else outside it', () => {
    const result = page({ locations: ['msk'] });
    expect(result).toMatchObject({ total: 3, ids: ['b', 'a', 'c'] });
    expect(result.priceRange).toEqual({ min: 100_00, max: 300_00 });
  });

  it('bounds prices inclusively; the price range ignores them', () => {
    const result = page({ priceMin: 100_00, priceMax: 200_00 });
    expect(result).toMatchObject({ total: 2, ids: ['b', 'a'], priceRange: { min: 50_00, max: 300_00 } });
  });

  it('a param filter keeps its own values in its facet, and narrows the other params', () => {
    const result = page({ params: new Map([['color', ['blue']]]) });
    expect(result).toMatchObject({ total: 1, ids: ['c'] });
    expect(result.filters).toEqual([
      {
        key: 'color',
        count: 2,
        values: [
          ['red', 2],
          ['blue', 1],
        ],
      },
    ]);
  });

  it('a row failing two filters counts in no facet', () => {
    const result = page({ brands: ['zeta'], params: new Map([['color', ['red']]]) });
    expect(result.total).toBe(0);
    // a and c fail only the brand: they count for brands; b (Zeta) fails only color, but has
    // no color to count; d fails both and counts nowhere.
    expect(result.brands).toEqual([{ name: 'ACME', count: 2 }]);
    expect(result.filters).toEqual([]);
    expect(result.priceRange).toBeNull();
  });

  it('unknown values match nothing', () => {
    expect(page({ brands: ['nobody'] }).total).toBe(0);
    expect(page({ params: new Map([['weight', ['1']]]) }).total).toBe(0);
    expect(page({ params: new Map([['color', ['green']]]) }).total).toBe(0);
  });

  it('leaves excluded offer ids out of the page and every facet; unknown ids change nothing', () => {
    const result = page({ exclude: ['b', 'nope'] });
    expect(result).toMatchObject({ total: 3, ids: ['a', 'c', 'd'] });
    expect(result.brands).toEqual([{ name: 'ACME', count: 2 }]);
    expect(result.filters.map((f) => f.key)).toEqual(['color']);
  });

  it('sorts by price, discount or popularity; equal keys keep the given order', () => {
    const sorted = (by: 'price' | 'discount' | 'popular', dir: 'asc' | 'desc', offset = 0, limit = 10, order: number[] | null = null) =>
      facetedPage(index, order, {}, { offset, limit, sort: { by, dir } }).ids;
    expect(sorted('price', 'asc')).toEqual(['d', 'a', 'b', 'c']);
    expect(sorted('price', 'desc')).toEqual(['c', 'b', 'a', 'd']);
    expect(sorted('price', 'asc', 1, 2)).toEqual(['a', 'b']);
    // d: 50% off, c: 25% off, a and b none (in the given order).
    expect(sorted('discount', 'desc')).toEqual(['d', 'c', 'b', 'a']);
    expect(sorted('popular', 'desc')).toEqual(['b', 'a', 'c', 'd']);
    expect(sorted('popular', 'asc')).toEqual(['d', 'c', 'a', 'b']);
    const ranked = ['a', 'b', 'c', 'd'].map((id) => index.rowOf.get(id)!);
    expect(sorted('discount', 'desc', 0, 10, ranked)).toEqual(['d', 'c', 'a', 'b']);
  });

  it('confines the page and every facet to a scope category', () => {
    const scope = CATEGORIES.findIndex((c) => c.externalId === 'child');
    const result = page({}, 0, 10, null, scope);
    expect(result).toMatchObject({ total: 2, ids: ['a', 'c'] });
    expect(result.categories.map((c) => c.category.externalId)).toEqual(['child', 'root', 'leaf']);
  });
});

describe('categories by the last path segment of their URL (GET /category/{slug})', () => {
  const withUrl = (externalId: string, id: number, url: string | null): CategoryRecord => ({ ...category(externalId, id), url });

  it.each([
    ['https://shop.example/catalog/t-shirts', 't-shirts'],
    ['https://shop.example/catalog/t-shirts/', 't-shirts'],
    ['https://shop.example/catalog/t-shirts?sort=new#top', 't-shirts'],
    ['/c/%D0%BE%D0%B1%D1%83%D0%B2%D1%8C', 'обувь'],
    ['https://shop.example/c/bad%E0', 'bad%E0'],
    ['https://shop.example/', undefined],
    ['https://shop.example', undefined],
  ])('%s → %s', (url, slug) => {
    expect(categorySlug(url)).toBe(slug);
  });

  it('indexes each slug once: the category with the smallest id when two URLs end alike; none without a URL', () => {
    const categories = [
      withUrl('w', 7, 'https://shop.example/women/shoes'),
      withUrl('m', 3, 'https://shop.example/men/shoes/'),
      withUrl('bags', 5, 'https://shop.example/c/bags'),
      withUrl('plain', 6, null),
    ];
    const built = buildFacetIndex([], categories);
    expect(built.categoryBySlug.get('shoes')).toBe(1);
    expect(built.categoryBySlug.get('bags')).toBe(2);
    expect([...built.categoryBySlug.keys()].sort()).toEqual(['bags', 'shoes']);
  });
});
