import { describe, expect, it } from 'vitest';
import { checkProductIds, isValidCollectionId, visibleProducts } from '../../../src/modules/collections/domain/collection.js';

describe('collection rules', () => {
  it('takes ids of 1 to 64 letters, digits, _ and -', () => {
    expect(['6', 'summer_sale', 'A-1', 'x'.repeat(64)].map(isValidCollectionId)).toEqual([true, true, true, true]);
    expect(['', 'a.b', 'a b', 'x'.repeat(65), 'ü'].map(isValidCollectionId)).toEqual([false, false, false, false, false]);
  });

  it('keeps each product id once, at its first place, and names a bad one by index', () => {
    expect(checkProductIds(['b', 'a', 'b'])).toEqual({ ok: true, productIds: ['b', 'a'] });
    expect(checkProductIds(['a', ' '])).toMatchObject({ ok: false, field: 'product_ids[1]' });
    expect(checkProductIds(['a\nb'])).toMatchObject({ ok: false, field: 'product_ids[0]' });
  });

  it('shows the served products in the collection’s order, with a location those sold there or everywhere', () => {
    const served = new Map([
      ['a', { id: 'a', locations: ['msk'] }],
      ['b', { id: 'b', locations: [] }],
      ['c', { id: 'c', locations: ['spb'] }],
    ]);
    expect(visibleProducts(['c', 'gone', 'a', 'b'], served, undefined).map((p) => p.id)).toEqual(['c', 'a', 'b']);
    expect(visibleProducts(['c', 'gone', 'a', 'b'], served, 'msk').map((p) => p.id)).toEqual(['a', 'b']);
  });
});
