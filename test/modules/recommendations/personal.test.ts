import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interesting, type HistoryEvent, type NeighbourLookup } from '../../../src/modules/recommendations/domain/personal.js';
import { DAY_MS } from '../../../src/modules/recommendations/domain/popularity.js';

const NOW = Date.UTC(2025, 5, 1, 12);
const TABLE: Record<string, [string, number][]> = {
  A: [
    ['X', 0.5],
    ['Y', 0.2],
  ],
  B: [
    ['X', 0.1],
    ['Z', 0.4],
  ],
  P: [['Q', 1]],
};
const lookup: NeighbourLookup = (item) => TABLE[item] ?? [];
const event = (item: string, kind: HistoryEvent['kind'], daysAgo: number): HistoryEvent => ({ item, kind, at: NOW - daysAgo * DAY_MS });

describe('interesting', () => {
  const history = [event('A', 'view', 0), event('B', 'cart', 7), event('P', 'purchase', 0), event('Y', 'purchase', 14)];

  it('sums recency × kind weight × similarity, without what the customer bought', () => {
    // Q = 5·1; X = 1·0.5 + (3·½)·0.1; Z = (3·½)·0.4; Y is bought, so left out.
    const result = interesting(history, lookup, { now: NOW, limit: 3, halfLifeDays: 7 });
    expect(result.enough).toBe(true);
    expect(result.items.map((s) => s.id)).toEqual(['Q', 'X', 'Z']);
    expect(result.items.map((s) => s.score)).toEqual([5, expect.closeTo(0.65, 12), expect.closeTo(0.6, 12)]);
  });

  it('says there is not enough signal when fewer candidates than wanted came out', () => {
    const result = interesting(history, lookup, { now: NOW, limit: 5, halfLifeDays: 7 });
    expect(result).toMatchObject({ enough: false, items: [{ id: 'Q' }, { id: 'X' }, { id: 'Z' }] });
    expect(interesting(history, lookup, { now: NOW, limit: 5, halfLifeDays: 7, minItems: 3 }).enough).toBe(true);
    expect(interesting([], lookup, { now: NOW, limit: 5, halfLifeDays: 7 })).toEqual({ items: [], enough: false });
  });

  it('looks each history item up once however often it was seen', () => {
    const asked: string[] = [];
    const counting: NeighbourLookup = (item) => {
      asked.push(item);
      return lookup(item);
    };
    const result = interesting([event('A', 'view', 0), event('A', 'view', 1), event('A', 'cart', 2)], counting, {
      now: NOW,
      limit: 2,
      halfLifeDays: 7,
    });
    expect(asked).toEqual(['A']);
    expect(result.items.map((s) => s.id)).toEqual(['X', 'Y']);
  });

  it('weighs a purchase over a cart over a view of the same age', () => {
    const table: NeighbourLookup = (item) => [[`${item}-next`, 1]];
    const result = interesting([event('v', 'view', 1), event('c', 'cart', 1), event('p', 'purchase', 1)], table, {
      now: NOW,
      limit: 3,
      halfLifeDays: 30,
    });
    expect(result.items.map((s) => s.id)).toEqual(['p-next', 'c-next', 'v-next']);
  });

  it('never recommends a purchased item, and ranks by score then id', () => {
    const ids: fc.Arbitrary<string> = fc.constantFrom('A', 'B', 'P', 'X', 'Y', 'Z', 'Q');
    const historyArb = fc.array(
      fc.record({
        item: ids,
        kind: fc.constantFrom('view' as const, 'cart' as const, 'purchase' as const),
        at: fc.integer({ min: 0, max: NOW }),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 0, max: 7 }), (events, limit) => {
        const { items } = interesting(events, lookup, { now: NOW, limit, halfLifeDays: 7 });
        const bought = new Set(events.filter((e) => e.kind === 'purchase').map((e) => e.item));
        expect(items.length).toBeLessThanOrEqual(limit);
        for (const [index, item] of items.entries()) {
          expect(bought.has(item.id)).toBe(false);
          expect(item.score).toBeGreaterThan(0);
          const next = items[index + 1];
          if (next) expect(item.score > next.score || (item.score === next.score && item.id < next.id)).toBe(true);
        }
      }),
    );
  });
});
