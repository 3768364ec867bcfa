import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buyingNow,
  compareScored,
  DAY_MS,
  decayedSales,
  decayWeight,
  diversify,
  popular,
  trending,
  type Purchase,
  type ScoredItem,
} from '../../../src/modules/recommendations/domain/popularity.js';

const NOW = Date.UTC(2025, 5, 1, 12);
const buy = (item: string, daysAgo: number, quantity = 1): Purchase => ({ item, at: NOW - daysAgo * DAY_MS, quantity });
const repeat = (count: number, make: (index: number) => Purchase): Purchase[] => Array.from({ length: count }, (_, index) => make(index));

describe('decayed sales', () => {
  it('halves a purchase’s weight every half-life, and counts a future one as now', () => {
    expect(decayWeight(NOW, NOW, 7)).toBe(1);
    expect(decayWeight(NOW - 7 * DAY_MS, NOW, 7)).toBe(0.5);
    expect(decayWeight(NOW - 21 * DAY_MS, NOW, 7)).toBe(0.125);
    expect(decayWeight(NOW + DAY_MS, NOW, 7)).toBe(1);
  });

  it('sums quantity times weight, skipping quantities that are not positive', () => {
    const sales = decayedSales([buy('a', 0, 2), buy('b', 14, 4), buy('b', 0, 0), buy('c', 0, -3), buy('c', 0, Number.NaN)], NOW, 7);
    expect(Object.fromEntries(sales)).toEqual({ a: 2, b: 1 });
  });

  it('refuses a half-life that is not a positive number', () => {
    expect(() => decayedSales([], NOW, 0)).toThrow(RangeError);
  });
});

describe('diversify', () => {
  const scores = [
    { id: 'a1', score: 10 },
    { id: 'a2', score: 9 },
    { id: 'a3', score: 8 },
    { id: 'b1', score: 7 },
  ];
  const categoryOf = (id: string) => id.slice(0, 1);

  it('lets a second category in once the first has been picked from twice (0.8^k)', () => {
    // Third pick: a3 at 8 × 0.8² = 5.12 against b1 at 7.
    expect(diversify(scores, { limit: 3, categoryOf })).toEqual([
      { id: 'a1', score: 10 },
      { id: 'a2', score: 9 * 0.8 },
      { id: 'b1', score: 7 },
    ]);
  });

  it('is the plain top-N with factor 1, and without categories', () => {
    expect(diversify(scores, { limit: 3, categoryOf, factor: 1 }).map((s) => s.id)).toEqual(['a1', 'a2', 'a3']);
    expect(diversify(scores, { limit: 3, categoryOf: () => undefined }).map((s) => s.id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('leaves out items without a positive score', () => {
    expect(diversify([{ id: 'z', score: 0 }, ...scores], { limit: 10, categoryOf }).map((s) => s.id)).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  /** The greedy pick the slow way: every remaining item's penalised score at every step. */
  function slowDiversify(input: readonly ScoredItem[], limit: number, category: (id: string) => string | undefined, factor: number) {
    const left = input.filter((s) => s.score > 0).sort(compareScored);
    const picked = new Map<string, number>();
    const result: ScoredItem[] = [];
    while (result.length < limit && left.length > 0) {
      let best = 0;
      let bestScore = -Infinity;
      left.forEach((s, index) => {
        const c = category(s.id);
        const effective = s.score * Math.pow(factor, c === undefined ? 0 : (picked.get(c) ?? 0));
        if (effective > bestScore) [best, bestScore] = [index, effective];
      });
      const [chosen] = left.splice(best, 1) as [ScoredItem];
      const c = category(chosen.id);
      if (c !== undefined) picked.set(c, (picked.get(c) ?? 0) + 1);
      result.push({ id: chosen.id, score: bestScore });
    }
    return result;
  }

  it('picks as the step-by-step greedy does, ties included', () => {
    const entry = fc.record({ id: fc.stringMatching(/^[a-d][0-9]$/), score: fc.integer({ min: 0, max: 6 }) });
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (s) => s.id, maxLength: 30 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(0.5, 0.8, 1),
        (input, limit, factor) => {
          const category = (id: string) => (id.startsWith('d') ? undefined : id.slice(0, 1));
          expect(diversify(input, { limit, categoryOf: category, factor })).toEqual(slowDiversify(input, limit, category, factor));
        },
      ),
    );
  });
});

describe('popular', () => {
  it('ranks by decayed quantity and diversifies by category', () => {
    const purchases = [buy('a1', 0, 10), buy('a2', 0, 9), buy('a3', 0, 8), buy('b1', 0, 7), buy('b2', 70, 100)];
    const list = popular(purchases, { now: NOW, halfLifeDays: 7, limit: 4, categoryOf: (id) => id.slice(0, 1) });
    // b2's 100 units ten half-lives ago weigh under 0.1.
    expect(list.map((s) => s.id)).toEqual(['a1', 'a2', 'b1', 'a3']);
  });
});

describe('trending', () => {
  const options = { now: NOW, limit: 10, windowMs: DAY_MS, pastWindows: 7, alpha: 1, minRecent: 3 };

  it('scores recent growth against the item’s own past, smoothed', () => {
    const purchases = [
      ...repeat(6, () => buy('x', 0.5)),
      ...repeat(7, (i) => buy('x', 1.5 + (i % 6))),
      ...repeat(10, () => buy('y', 0.5)),
      ...repeat(70, (i) => buy('y', 1.5 + (i % 6))),
      ...repeat(2, () => buy('z', 0.5)),
      ...repeat(3, () => buy('n', 0.5, 50)),
    ];
    expect(trending(purchases, options)).toEqual([
      { id: 'n', score: 4, recent: 3, pastPerWindow: 0 }, // (3 + 1) / (0 + 1)
      { id: 'x', score: 3.5, recent: 6, pastPerWindow: 1 }, // (6 + 1) / (1 + 1)
      { id: 'y', score: 1, recent: 10, pastPerWindow: 10 }, // (10 + 1) / (10 + 1)
    ]);
  });

  it('puts the window’s edges where they belong', () => {
    const at = (item: string, time: number): Purchase => ({ item, at: time, quantity: 1 });
    const purchases = [
      ...repeat(3, () => at('edge', NOW)),
      at('edge', NOW - DAY_MS), // the past's last moment
      at('edge', NOW - 8 * DAY_MS), // before the past: not counted
      at('edge', NOW + 1), // after now: not counted
    ];
    expect(trending(purchases, options)).toEqual([{ id: 'edge', score: 4 / (1 / 7 + 1), recent: 3, pastPerWindow: 1 / 7 }]);
  });
});

describe('buying now', () => {
  it('counts purchases, not quantity, in the 24 hours up to now', () => {
    const at = (item: string, time: number, quantity = 1): Purchase => ({ item, at: time, quantity });
    const purchases = [
      at('bulk', NOW - 1000, 500),
      at('often', NOW - 1000),
      at('often', NOW),
      at('often', NOW - DAY_MS + 1),
      at('old', NOW - DAY_MS),
      at('future', NOW + 1),
      at('bulk', NOW - 2000),
      at('b-tie', NOW - 5),
      at('b-tie', NOW - 6),
    ];
    expect(buyingNow(purchases, { now: NOW, limit: 2 })).toEqual([
      { id: 'often', score: 3 },
      { id: 'b-tie', score: 2 },
    ]);
    expect(buyingNow(purchases, { now: NOW, limit: 5 }).map((s) => s.id)).toEqual(['often', 'b-tie', 'bulk']);
  });
});
