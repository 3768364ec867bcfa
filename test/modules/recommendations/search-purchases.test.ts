import { describe, expect, it } from 'vitest';
import { SearchPurchases } from '../../../src/modules/recommendations/domain/search-purchases.js';

const HOUR = 60 * 60 * 1000;

describe('search purchases (the search recommender’s model)', () => {
  it('credits a purchase to the queries its device searched in the window before it, ranked by customers', () => {
    const model = new SearchPurchases({ windowMs: 24 * HOUR });
    model.addSearch('d1', 0, 'red shoes');
    model.addSearch('d2', 0, 'red shoes');
    model.addSearch('d3', 0, 'red shoes');
    model.addOrder('d1', 1 * HOUR, ['A', 'B']);
    model.addOrder('d2', 2 * HOUR, ['A']);
    model.addOrder('d3', 3 * HOUR, ['C']);
    expect(model.lists(10).get('red shoes')).toEqual([
      { id: 'A', score: 2 },
      { id: 'B', score: 1 },
      { id: 'C', score: 1 },
    ]);
  });

  it('counts a customer once per item however often they buy it, and ignores purchases before the search or past the window', () => {
    const model = new SearchPurchases({ windowMs: 24 * HOUR });
    model.addSearch('d1', 10 * HOUR, 'socks');
    model.addOrder('d1', 9 * HOUR, ['EARLY']);
    model.addOrder('d1', 11 * HOUR, ['S', 'S']);
    model.addOrder('d1', 12 * HOUR, ['S']);
    model.addOrder('d1', 40 * HOUR, ['LATE']);
    model.addOrder('other', 11 * HOUR, ['X']);
    expect(model.lists(10)).toEqual(new Map([['socks', [{ id: 'S', score: 1 }]]]));
  });

  it('keeps each device’s newest searches only, and cuts each list at topN', () => {
    const model = new SearchPurchases({ windowMs: 1000 * HOUR, maxSearchesPerDevice: 2 });
    for (let i = 0; i < 10; i++) model.addSearch('d1', i, `q${i}`);
    model.addOrder('d1', 100, ['A', 'B', 'C']);
    const lists = model.lists(2);
    expect([...lists.keys()].sort()).toEqual(['q8', 'q9']);
    expect(lists.get('q9')).toEqual([
      { id: 'A', score: 1 },
      { id: 'B', score: 1 },
    ]);
  });
});
