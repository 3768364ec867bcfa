import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoOccurrence, jaccard, lift, ranksBefore, type Neighbour } from '../../../src/modules/recommendations/domain/co-occurrence.js';

function fed(baskets: readonly string[][], options?: ConstructorParameters<typeof CoOccurrence>[0]): CoOccurrence {
  const counts = new CoOccurrence(options);
  for (const basket of baskets) counts.add(basket);
  return counts;
}

/** Three orders: {A,B,C}, {A,B}, {B,C}. Supports A 2, B 3, C 2; together AB 2, AC 1, BC 2. */
const THREE = [
  ['A', 'B', 'C'],
  ['A', 'B'],
  ['B', 'C'],
];

describe('counting baskets', () => {
  it('counts supports and co-counts of a three-basket example', () => {
    const counts = fed(THREE);
    expect([counts.support('A'), counts.support('B'), counts.support('C'), counts.support('Z')]).toEqual([2, 3, 2, 0]);
    expect([counts.coCount('A', 'B'), counts.coCount('A', 'C'), counts.coCount('B', 'C'), counts.coCount('C', 'B')]).toEqual([2, 1, 2, 2]);
    expect(counts.coCount('A', 'A')).toBe(0);
    expect(counts.stats()).toEqual({ baskets: 3, items: 3, pairs: 3, prunedPairs: 0 });
  });

  it('computes Jaccard and lift by hand for the three baskets', () => {
    const counts = fed(THREE);
    expect(counts.similarity('A', 'B')).toBeCloseTo(2 / 3, 12); // 2 / (2 + 3 - 2)
    expect(counts.similarity('A', 'C')).toBeCloseTo(1 / 3, 12); // 1 / (2 + 2 - 1)
    expect(counts.similarity('B', 'C')).toBeCloseTo(2 / 3, 12); // 2 / (3 + 2 - 2)
    expect(counts.similarity('A', 'B', 'lift')).toBeCloseTo(1 / 3, 12); // 2 / (2 · 3)
    expect(counts.similarity('A', 'C', 'lift')).toBeCloseTo(1 / 4, 12); // 1 / (2 · 2)
  });

  it('lists neighbours with at least two baskets together, ties broken by id', () => {
    expect(Object.fromEntries(fed(THREE).neighbours(10))).toEqual({
      A: [{ id: 'B', score: 2 / 3, coCount: 2 }],
      B: [
        { id: 'A', score: 2 / 3, coCount: 2 },
        { id: 'C', score: 2 / 3, coCount: 2 },
      ],
      C: [{ id: 'B', score: 2 / 3, coCount: 2 }],
    });
  });

  it('takes pairs seen once when minCoCount is 1, and keeps only topN', () => {
    const lists = fed(THREE).neighbours(1, { minCoCount: 1 });
    expect(lists.get('A')).toEqual([{ id: 'B', score: 2 / 3, coCount: 2 }]);
    expect(
      fed(THREE)
        .neighbours(5, { minCoCount: 1 })
        .get('C')
        ?.map((n) => n.id),
    ).toEqual(['B', 'A']);
    expect(fed(THREE).neighbours(0).size).toBe(0);
  });

  it('ranks an item always bought with P above a best-seller that is in every basket', () => {
    const baskets: string[][] = [];
    for (let order = 0; order < 100; order++) baskets.push(order < 3 ? ['P', 'Q', 'BEST'] : ['BEST', `x${order}`]);
    const neighbours = fed(baskets).neighbours(2).get('P');
    expect(neighbours?.map((n) => n.id)).toEqual(['Q', 'BEST']);
    expect(neighbours?.[0]?.score).toBe(1);
    expect(neighbours?.[1]?.score).toBeCloseTo(3 / 100, 12);
  });

  it('counts an item once per basket however often it repeats', () => {
    const counts = fed([['A', 'A', 'B', 'A']]);
    expect([counts.support('A'), counts.coCount('A', 'B'), counts.stats().pairs]).toEqual([1, 1, 1]);
  });

  it('keeps only the last distinct items of a long basket', () => {
    const counts = fed([['a', 'b', 'c', 'a']], { maxBasketItems: 2 });
    expect([counts.support('a'), counts.support('b'), counts.support('c')]).toEqual([1, 0, 1]);
    expect(counts.coCount('a', 'c')).toBe(1);
  });

  it('makes 1,225 pairs, not 124,750, from a session of 500 views', () => {
    const session = Array.from({ length: 500 }, (_, index) => `p${index}`);
    const counts = fed([session]);
    expect(counts.stats()).toEqual({ baskets: 1, items: 50, pairs: 1225, prunedPairs: 0 });
    expect(counts.support('p499')).toBe(1);
    expect(counts.support('p449')).toBe(0);
  });

  it('ignores empty ids and does not count an empty basket', () => {
    const counts = fed([[], [''], ['', 'A']]);
    expect(counts.stats()).toEqual({ baskets: 1, items: 1, pairs: 0, prunedPairs: 0 });
  });

  it('drops the rarest pairs past maxPairs and keeps the frequent ones', () => {
    const counts = new CoOccurrence({ maxPairs: 3 });
    for (let order = 0; order < 3; order++) counts.add(['a', 'b']);
    counts.add(['c', 'd']);
    counts.add(['e', 'f']);
    expect(counts.stats().pairs).toBe(3);
    counts.add(['g', 'h']);
    expect(counts.stats()).toMatchObject({ pairs: 1, prunedPairs: 3 });
    expect(counts.coCount('a', 'b')).toBe(3);
    expect(counts.coCount('c', 'd')).toBe(0);
    expect(counts.support('c')).toBe(1);
  });
});

describe('similarities', () => {
  it('are 0 without baskets rather than NaN', () => {
    expect([jaccard(0, 0, 0), lift(0, 0, 0)]).toEqual([0, 0]);
  });
});

const item = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const baskets = fc.array(fc.array(item, { maxLength: 8 }), { maxLength: 40 });

/** Counts the slow way: every pair of every basket, after the same dedupe and cap. */
function reference(input: readonly string[][], cap: number): { support: Map<string, number>; co: Map<string, number> } {
  const support = new Map<string, number>();
  const co = new Map<string, number>();
  for (const basket of input) {
    const kept = [...new Set([...basket].reverse())].slice(0, cap);
    for (const a of kept) support.set(a, (support.get(a) ?? 0) + 1);
    for (const a of kept) for (const b of kept) if (a < b) co.set(`${a}|${b}`, (co.get(`${a}|${b}`) ?? 0) + 1);
  }
  return { support, co };
}

describe('properties', () => {
  it('counts as a pair-by-pair reference does', () => {
    fc.assert(
      fc.property(baskets, fc.integer({ min: 1, max: 6 }), (input, cap) => {
        const counts = fed(input, { maxBasketItems: cap });
        const { support, co } = reference(input, cap);
        for (const a of 'abcdefgh') {
          expect(counts.support(a)).toBe(support.get(a) ?? 0);
          for (const b of 'abcdefgh') if (a < b) expect(counts.coCount(a, b)).toBe(co.get(`${a}|${b}`) ?? 0);
        }
      }),
    );
  });

  it('gives a symmetric Jaccard and lift, Jaccard within [0, 1]', () => {
    fc.assert(
      fc.property(baskets, item, item, (input, a, b) => {
        const counts = fed(input);
        expect(counts.similarity(a, b)).toBe(counts.similarity(b, a));
        expect(counts.similarity(a, b, 'lift')).toBe(counts.similarity(b, a, 'lift'));
        expect(counts.similarity(a, b)).toBeGreaterThanOrEqual(0);
        expect(counts.similarity(a, b)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('lists the same neighbours as a full sort, never the item itself, whatever the basket order', () => {
    fc.assert(
      fc.property(
        baskets,
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('jaccard' as const, 'lift' as const),
        fc.integer({ min: 1, max: 3 }),
        (input, topN, similarity, minCoCount) => {
          const counts = fed(input);
          const lists = counts.neighbours(topN, { similarity, minCoCount });
          for (const [id, list] of lists) {
            const all: Neighbour[] = [];
            for (const other of 'abcdefgh') {
              const coCount = counts.coCount(id, other);
              if (other !== id && coCount >= minCoCount) all.push({ id: other, score: counts.similarity(id, other, similarity), coCount });
            }
            all.sort((x, y) => (ranksBefore(x, y) ? -1 : 1));
            expect(list).toEqual(all.slice(0, topN));
            expect(list.some((n) => n.id === id)).toBe(false);
          }
          const reversed = fed([...input].reverse()).neighbours(topN, { similarity, minCoCount });
          expect([...reversed]).toEqual([...lists]);
        },
      ),
    );
  });
});
