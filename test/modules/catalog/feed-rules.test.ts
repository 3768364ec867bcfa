import { describe, expect, it } from 'vitest';
import { CategoryStatsCollector, resolveCategories } from '../../../src/modules/catalog/domain/categories.js';
import { hasDiscount, isWidgetable, normalizeOffer, type ProductDraft } from '../../../src/modules/catalog/domain/feed-offer.js';
import { parseFeedPrice } from '../../../src/modules/catalog/domain/feed-price.js';
import { emptyRawOffer, type RawOffer } from '../../../src/modules/catalog/domain/feed-types.js';

function offer(fields: Partial<RawOffer>): RawOffer {
  return { ...emptyRawOffer(), ...fields };
}

function product(fields: Partial<RawOffer>): ProductDraft {
  const outcome = normalizeOffer(offer(fields));
  if (!outcome.ok) throw new Error(`skipped: ${outcome.reason}`);
  return outcome.product;
}

describe('feed prices', () => {
  it.each([
    ['1990.50', 199050],
    ['1990,50', 199050],
    ['1 990.5', 199050],
    ['0', 0],
    ['12', 1200],
    ['1.005', 101],
    ['1.004', 100],
    ['0.1', 10],
    ['+5', 500],
    ['5.', 500],
    ['007.07', 707],
    [19.99, 1999],
    [1.005, 101],
    [0, 0],
  ])('reads %j as %i minor units, exactly', (value, minor) => {
    expect(parseFeedPrice(value)).toEqual({ ok: true, minor });
  });

  it.each([
    ['-1', 'negative'],
    ['-0.5', 'negative'],
    [-3, 'negative'],
    ['abc', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['12.5.1', 'not_a_number'],
    ['--1', 'not_a_number'],
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_a_number'],
    ['1'.repeat(20), 'too_large'],
  ])('refuses %j as %s', (value, reason) => {
    expect(parseFeedPrice(value)).toEqual({ ok: false, reason });
  });
});

describe('offer rules', () => {
  it('skips an offer without an id, with a reason', () => {
    expect(normalizeOffer(offer({ id: '  ', name: 'x' }))).toEqual({ ok: false, id: '', reason: 'offer has no id' });
  });

  it.each([
    ['-10', 'price is negative'],
    ['ten', 'price is not a number'],
  ])('skips an offer priced %j: %s', (price, reason) => {
    expect(normalizeOffer(offer({ id: 'p', price }))).toEqual({ ok: false, id: 'p', reason });
  });

  it('keeps an offer without a price (it is only not widgetable)', () => {
    expect(product({ id: 'p', price: undefined }).price).toBeNull();
    expect(product({ id: 'p', price: '  ' }).price).toBeNull();
  });

  it('drops an unusable oldprice and keeps the product', () => {
    const kept = product({ id: 'p', price: '10', oldprice: 'soon' });
    expect(kept.price).toBe(1000);
    expect(kept.oldprice).toBeNull();
    expect(product({ id: 'p', price: '10', oldprice: '-1' }).oldprice).toBeNull();
  });

  it('reads availability (true unless said otherwise), ignored, and sales_rate', () => {
    expect(product({ id: 'p' }).available).toBe(true);
    expect(product({ id: 'p', available: 'false' }).available).toBe(false);
    expect(product({ id: 'p', available: false }).available).toBe(false);
    expect(product({ id: 'p', available: '1' }).available).toBe(true);
    expect(product({ id: 'p' }).ignored).toBe(false);
    expect(product({ id: 'p', ignored: 'true' }).ignored).toBe(true);
    expect(product({ id: 'p', salesRate: '12' }).salesRate).toBe(12);
    expect(product({ id: 'p', salesRate: 'lots' }).salesRate).toBeNull();
  });

  it('groups params by name, keeping values in order and the first unit', () => {
    const p = product({
      id: 'p',
      params: [
        { name: 'Size', value: '42', unit: 'EU' },
        { name: 'Color', value: 'red', unit: undefined },
        { name: 'Size', value: 43, unit: 'US' },
        { name: ' ', value: 'nameless', unit: undefined },
        { name: 'Empty', value: '  ', unit: undefined },
      ],
    });
    expect(p.params).toEqual([
      { key: 'Size', values: ['42', 43], unit: 'EU' },
      { key: 'Color', values: ['red'] },
    ]);
  });

  it('trims text, removes duplicate categories and pictures, and drops over-long links', () => {
    const p = product({
      id: ' p ',
      name: '  Runner ',
      url: `https://x/${'u'.repeat(2100)}`,
      categoryIds: ['1', ' 1', '2', ''],
      pictures: ['https://img/1', 'https://img/1', `https://img/${'x'.repeat(2100)}`],
    });
    expect(p).toMatchObject({ id: 'p', name: 'Runner', url: null, categoryIds: ['1', '2'], pictures: ['https://img/1'] });
  });

  it('is widgetable with price, a known category, name and link all present', () => {
    const known = (id: string) => id === 'c1';
    const full = { id: 'p', price: '1', name: 'n', url: 'https://x/p', categoryIds: ['zz', 'c1'] };
    expect(isWidgetable(product(full), known)).toBe(true);
    expect(isWidgetable(product({ ...full, price: undefined }), known)).toBe(false);
    expect(isWidgetable(product({ ...full, name: undefined }), known)).toBe(false);
    expect(isWidgetable(product({ ...full, url: undefined }), known)).toBe(false);
    expect(isWidgetable(product({ ...full, categoryIds: ['zz'] }), known)).toBe(false);
  });

  it('has a discount only when oldprice is above price', () => {
    expect(hasDiscount({ price: 100, oldprice: 200 })).toBe(true);
    expect(hasDiscount({ price: 100, oldprice: 100 })).toBe(false);
    expect(hasDiscount({ price: null, oldprice: 200 })).toBe(false);
  });
});

describe('category tree', () => {
  const cat = (id: string, parentId?: string) => ({ id, parentId, name: `C${id}`, url: undefined });

  it('computes levels from the root (1) down, whatever the order of the feed', () => {
    const { categories, notes } = resolveCategories([cat('3', '2'), cat('2', '1'), cat('1')]);
    expect(categories.map((c) => [c.externalId, c.parentExternalId, c.level])).toEqual([
      ['3', '2', 3],
      ['2', '1', 2],
      ['1', null, 1],
    ]);
    expect(notes).toEqual([]);
  });

  it('makes a category with an unknown parent a root and says so', () => {
    const { categories, notes } = resolveCategories([cat('1'), cat('2', '99'), cat('3', '2')]);
    expect(categories.map((c) => [c.externalId, c.parentExternalId, c.level])).toEqual([
      ['1', null, 1],
      ['2', null, 1],
      ['3', '2', 2],
    ]);
    expect(notes).toEqual([{ id: '2', reason: 'parent category 99 is not in the feed; it became a root' }]);
  });

  it('breaks a loop at its smallest id, the same whatever the order of the feed', () => {
    const loop = [cat('b', 'c'), cat('c', 'a'), cat('a', 'b'), cat('d', 'a')];
    const first = resolveCategories(loop);
    const second = resolveCategories([...loop].reverse());
    for (const result of [first, second]) {
      const byId = Object.fromEntries(result.categories.map((c) => [c.externalId, [c.parentExternalId, c.level]]));
      expect(byId).toEqual({ a: [null, 1], b: ['c', 3], c: ['a', 2], d: ['a', 2] });
      expect(result.notes).toHaveLength(1);
      expect(result.notes[0]?.id).toBe('a');
      expect(result.notes[0]?.reason).toMatch(/form a loop of parents; a became a root/);
    }
  });

  it('breaks a self-parent and keeps the first of two categories with one id', () => {
    const { categories, notes } = resolveCategories([cat('1', '1'), cat('2'), { ...cat('2', '1'), name: 'Again' }]);
    expect(categories).toEqual([
      { externalId: '1', parentExternalId: null, name: 'C1', url: null, level: 1 },
      { externalId: '2', parentExternalId: null, name: 'C2', url: null, level: 1 },
    ]);
    expect(notes.map((n) => n.id)).toEqual(['1', '2']);
  });

  it('handles a chain thousands deep without running out of stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => cat(String(i), i === 0 ? undefined : String(i - 1)));
    const { categories } = resolveCategories(chain.reverse());
    expect(categories[0]?.level).toBe(20_000);
  });

  it('counts direct products, discounted ones and their locations per category', () => {
    const stats = new CategoryStatsCollector();
    stats.add({ categoryIds: ['1', '2'], price: 100, oldprice: 150, locationIds: ['msk'] });
    stats.add({ categoryIds: ['1'], price: 100, oldprice: null, locationIds: ['spb', 'msk'] });
    stats.add({ categoryIds: ['2'], price: null, oldprice: 300, locationIds: [] });
    const feedLocations = ['ru', 'msk', 'spb'];
    expect(stats.statsOf('1', feedLocations)).toEqual({
      productCount: 2,
      discountProductCount: 1,
      locationIds: ['msk', 'spb'],
      discountLocationIds: ['msk'],
    });
    // A product without locations is sold everywhere: every location of the feed.
    expect(stats.statsOf('2', feedLocations)).toEqual({
      productCount: 2,
      discountProductCount: 1,
      locationIds: ['msk', 'ru', 'spb'],
      discountLocationIds: ['msk'],
    });
    expect(stats.statsOf('3', feedLocations)).toEqual({
      productCount: 0,
      discountProductCount: 0,
      locationIds: [],
      discountLocationIds: [],
    });
  });

  it('puts every location of the feed on the discount locations of a discounted product sold everywhere', () => {
    const stats = new CategoryStatsCollector();
    stats.add({ categoryIds: ['1'], price: 100, oldprice: 150, locationIds: [] });
    stats.add({ categoryIds: ['1'], price: 100, oldprice: null, locationIds: ['x'] });
    expect(stats.statsOf('1', ['ru', 'msk'])).toEqual({
      productCount: 2,
      discountProductCount: 1,
      locationIds: ['msk', 'ru', 'x'],
      discountLocationIds: ['msk', 'ru'],
    });
  });
});
