import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bandOf, sharedParams, similarProducts, type ProductFacts } from '../../../src/modules/recommendations/domain/similar.js';

const product = (id: string, price: number | null, params: Record<string, string[]> = {}, categories = ['shoes']): ProductFacts => ({
  id,
  price,
  categories,
  params,
});

const CURRENT = product('p', 10_000, { color: ['red'], size: ['42', '43'] });
const CANDIDATES = [
  product('p', 10_000, { color: ['red'] }),
  product('f', 30_000),
  product('a', 10_500, { color: ['blue'] }),
  product('g', null),
  product('b', 11_000, { color: ['red'] }),
  product('e', 14_000),
  product('c', 9_000, { color: ['red'], size: ['43'] }),
  product('h', 10_000, { color: ['red'] }, ['bags']),
  product('d', 12_000, { color: ['red'], size: ['42'] }),
  product('a', 10_500, { color: ['red'] }),
];

describe('similar products', () => {
  it('fills from the ±10 % band first, by shared params, then widens', () => {
    // ±10 %: c (2 params), b (1), a (0); ±25 %: d; ±50 %: e; any price: f, then g without one.
    expect(similarProducts(CURRENT, CANDIDATES, { limit: 10 })).toEqual(['c', 'b', 'a', 'd', 'e', 'f', 'g']);
    expect(similarProducts(CURRENT, CANDIDATES, { limit: 4 })).toEqual(['c', 'b', 'a', 'd']);
  });

  it('ranks by price closeness when params tie', () => {
    const list = similarProducts(product('p', 10_000), [product('x', 10_900), product('y', 9_950), product('w', 10_050)], { limit: 3 });
    expect(list).toEqual(['w', 'y', 'x']);
  });

  it('puts a band’s edge inside it, exactly', () => {
    expect(bandOf(1_000, 10_000, [10, 25, 50])).toBe(0);
    expect(bandOf(1_001, 10_000, [10, 25, 50])).toBe(1);
    expect(bandOf(5_001, 10_000, [10, 25, 50])).toBe(3);
    expect(bandOf(0, null, [10, 25, 50])).toBe(3);
    // 0.1 × 3 is 0.30000000000000004 in floating point; the integer comparison is not fooled.
    expect(bandOf(3, 30, [10])).toBe(0);
  });

  it('takes any price for a current product without one', () => {
    const list = similarProducts(product('p', null, { color: ['red'] }), [product('b', 5), product('a', 900, { color: ['red'] })], {
      limit: 5,
    });
    expect(list).toEqual(['a', 'b']);
  });

  it('counts params with a value in common', () => {
    expect(sharedParams(CURRENT, product('x', 1, { color: ['red', 'blue'], size: ['44'], width: ['wide'] }))).toBe(1);
  });

  const facts = fc.record({
    id: fc.constantFrom('p', 'a', 'b', 'c', 'd', 'e', 'f'),
    price: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
    categories: fc.subarray(['shoes', 'bags', 'hats']),
    params: fc.dictionary(fc.constantFrom('color', 'size'), fc.subarray(['1', '2', '3'])),
  });

  it('never answers the product itself, a product twice, or one from another category; a longer limit extends the list', () => {
    fc.assert(
      fc.property(facts, fc.array(facts, { maxLength: 15 }), fc.integer({ min: 0, max: 8 }), (current, candidates, limit) => {
        const list = similarProducts(current, candidates, { limit });
        expect(list).not.toContain(current.id);
        expect(new Set(list).size).toBe(list.length);
        expect(list.length).toBeLessThanOrEqual(limit);
        for (const id of list) {
          expect(candidates.some((c) => c.id === id && c.categories.some((k) => current.categories.includes(k)))).toBe(true);
        }
        expect(similarProducts(current, candidates, { limit: limit + 1 }).slice(0, list.length)).toEqual(list);
      }),
    );
  });
});
