import { describe, expect, it } from 'vitest';
import {
  buyingNow,
  compareScored,
  DAY_MS,
  decayedSales,
  trending,
  type Purchase,
} from '../../../src/modules/recommendations/domain/popularity.js';
import { SalesTally } from '../../../src/modules/recommendations/domain/sales-tally.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const WINDOW = 7 * DAY_MS;

/** Purchases across every window the lists tell apart, the edges included. */
const PURCHASES: Purchase[] = [
  ...Array.from({ length: 5 }, (_, n) => ({ item: 'new', at: NOW - n * 1000, quantity: 1 })),
  ...Array.from({ length: 4 }, (_, n) => ({ item: 'steady', at: NOW - n * 6 * DAY_MS, quantity: 2 })),
  { item: 'steady', at: NOW - WINDOW, quantity: 1 },
  { item: 'steady', at: NOW - 5 * WINDOW, quantity: 1 },
  { item: 'old', at: NOW - 200 * DAY_MS, quantity: 50 },
  { item: 'day', at: NOW - DAY_MS + 1, quantity: 1 },
  { item: 'day', at: NOW - DAY_MS, quantity: 1 },
  { item: 'future', at: NOW + 1000, quantity: 1 },
  { item: 'zero', at: NOW, quantity: 0 },
];

describe('SalesTally', () => {
  const tally = new SalesTally({ now: NOW, halfLifeDays: 14, trendWindowMs: WINDOW, trendPastWindows: 4 });
  for (const purchase of PURCHASES) tally.add(purchase);

  it('ranks the best sellers by the same decayed sales as decayedSales', () => {
    const expected = [...decayedSales(PURCHASES, NOW, 14)].map(([id, score]) => ({ id, score }));
    expected.sort(compareScored);
    expect(tally.topSold(100)).toEqual(expected);
    expect(tally.topSold(2)).toEqual(expected.slice(0, 2));
  });

  it('answers trending and buying_now as popularity.ts does over every purchase', () => {
    const options = { now: NOW, limit: 10, windowMs: WINDOW, pastWindows: 4, minRecent: 1 };
    expect(tally.trending(10, { minRecent: 1 })).toEqual(trending(PURCHASES, options));
    expect(tally.trending(10)).toEqual(trending(PURCHASES, { ...options, minRecent: 3 }));
    expect(tally.buyingNow(10)).toEqual(buyingNow(PURCHASES, { now: NOW, limit: 10 }));
  });
});
