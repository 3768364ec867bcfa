import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairTable } from '../../../src/modules/recommendations/domain/pair-table.js';

/** The pair table against a Map of the same pairs, over random increments, growth and pruning. */
describe('pair table (co-occurrence counts)', () => {
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);

  it('counts every pair as a Map would, through growth and a drop of the rarest pairs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 })), { maxLength: 3000 }),
        fc.integer({ min: 0, max: 4 }),
        (increments, threshold) => {
          const table = new PairTable(4);
          const reference = new Map<string, number>();
          for (const [a, b] of increments) {
            if (a === b) continue;
            table.increment(a, b);
            reference.set(key(a, b), (reference.get(key(a, b)) ?? 0) + 1);
          }
          expect(table.size).toBe(reference.size);
          for (const [pair, count] of reference) {
            const [a, b] = pair.split(',').map(Number) as [number, number];
            expect(table.get(b, a)).toBe(count);
          }
          const seen = new Map<string, number>();
          table.forEach((low, high, count) => {
            expect(low).toBeLessThan(high);
            seen.set(key(low, high), count);
          });
          expect(seen).toEqual(reference);
          const histogram = table.histogram(3);
          expect(histogram.reduce((sum, n) => sum + n, 0)).toBe(reference.size);

          const dropped = table.dropAtMost(threshold);
          const kept = [...reference].filter(([, count]) => count > threshold);
          expect(dropped).toBe(reference.size - kept.length);
          expect(table.size).toBe(kept.length);
          for (const [pair, count] of reference) {
            const [a, b] = pair.split(',').map(Number) as [number, number];
            expect(table.get(a, b)).toBe(count > threshold ? count : 0);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tells apart pairs that share an item and pairs of large item numbers', () => {
    const table = new PairTable();
    table.increment(2 ** 30 - 1, 5);
    table.increment(5, 2 ** 30 - 1);
    table.increment(5, 6);
    expect(table.get(5, 2 ** 30 - 1)).toBe(2);
    expect(table.get(6, 5)).toBe(1);
    expect(table.get(5, 7)).toBe(0);
  });
});
