import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { ActiveChainsView } from '../../../src/modules/chains/triggers/active-chains.js';
import { dueChains, listFiringKey, listSignalOf, nextCheckAt } from '../../../src/modules/chains/triggers/domain/abandoned.js';
import { alertFiringKey, itemsByProfile } from '../../../src/modules/chains/triggers/domain/alerts.js';
import { chainsOfSegment, entryFiringKey, slicesOf } from '../../../src/modules/chains/triggers/domain/entries.js';
import { chainProductsOf, MAX_TRIGGER_PRODUCTS } from '../../../src/modules/chains/triggers/domain/products.js';
import type { Product } from '../../../src/modules/catalog/domain/product.schema.js';
import { ChainStarterRecorder } from '../../helpers/chain-starter-recorder.js';

const cart = (chainId: number, afterSeconds: number) => ({ chainId, trigger: { kind: 'abandoned_cart', afterSeconds } }) as const;

describe('abandoned list rules', () => {
  it('reads which list an event moves, and that a purchase ends the cart without arming it', () => {
    expect(listSignalOf({ event: 'cart', custom: false })).toEqual({ list: 'cart', armed: true, purchase: false });
    expect(listSignalOf({ event: 'remove_from_cart', custom: false })).toEqual({ list: 'cart', armed: true, purchase: false });
    expect(listSignalOf({ event: 'remove_wish', custom: false })).toEqual({ list: 'wish', armed: true, purchase: false });
    expect(listSignalOf({ event: 'purchase', custom: false })).toEqual({ list: 'cart', armed: false, purchase: true });
    expect(listSignalOf({ event: 'view', custom: false })).toBeUndefined();
    // A custom event may be named "cart": it is not the cart event.
    expect(listSignalOf({ event: 'cart', custom: true })).toBeUndefined();
  });

  it('finds the chains due and the next check from the last change', () => {
    const chains = [cart(1, 60), cart(2, 3600), { chainId: 3, trigger: { kind: 'segment_entry', segmentId: 1 } } as const];
    expect(nextCheckAt(chains, 1000, -Infinity)).toBe(61_000);
    expect(dueChains(chains, 1000, 60_999)).toEqual([]);
    expect(dueChains(chains, 1000, 61_000).map((c) => c.chainId)).toEqual([1]);
    expect(nextCheckAt(chains, 1000, 61_000)).toBe(3_601_000);
    expect(dueChains(chains, 1000, 9_000_000).map((c) => c.chainId)).toEqual([1, 2]);
    expect(nextCheckAt(chains, 1000, 3_601_000)).toBeUndefined();
    expect(nextCheckAt([], 1000, -Infinity)).toBeUndefined();
  });

  it('keys a firing by the list state, a landing and an entry by their profile too', () => {
    expect(listFiringKey('abandoned_wish', 42)).toBe('abandoned_wish/42');
    expect(alertFiringKey('price_drop', 7, 3)).toBe('price_drop/7/3');
    expect(entryFiringKey(5, 1000, 3)).toBe('segment_entry/5/1000/3');
  });
});

describe('trigger products', () => {
  const product = (id: string, fields: Partial<Product>) =>
    ({ id, name: '', url: null, picture: null, price_full: null, ...fields }) as Product;

  it('takes name, price, link and picture from the served catalog, and leaves out what the feed lacks', () => {
    const served = new Map([
      ['a', product('a', { name: 'A', price_full: 12.5, url: 'https://s/a', picture: 'https://s/a.jpg' })],
      ['b', product('b', { name: 'B' })],
    ]);
    expect(chainProductsOf([{ id: 'a', price: 99 }, { id: 'b' }, { id: 'c', price: 3 }, { id: 'd' }], served)).toEqual([
      { id: 'a', name: 'A', price: 12.5, url: 'https://s/a', picture: 'https://s/a.jpg' },
      { id: 'b', name: 'B' },
      { id: 'c', name: '', price: 3 },
      { id: 'd', name: '' },
    ]);
  });

  it('keeps the newest items of a long list', () => {
    const items = Array.from({ length: MAX_TRIGGER_PRODUCTS + 5 }, (_, i) => ({ id: `i${i}` }));
    const products = chainProductsOf(items, new Map());
    expect(products).toHaveLength(MAX_TRIGGER_PRODUCTS);
    expect(products[0]?.id).toBe('i5');
  });
});

describe('alerts and entries', () => {
  it('groups alerts by profile in order', () => {
    const grouped = itemsByProfile([
      { profileId: 2, itemId: 'a' },
      { profileId: 1, itemId: 'b' },
      { profileId: 2, itemId: 'c' },
    ]);
    expect([...grouped]).toEqual([
      [2, ['a', 'c']],
      [1, ['b']],
    ]);
  });

  it('picks the chains of one segment and slices ids', () => {
    const chains = [
      { chainId: 1, trigger: { kind: 'segment_entry', segmentId: 4 } },
      { chainId: 2, trigger: { kind: 'segment_entry', segmentId: 5 } },
      cart(3, 60),
    ] as const;
    expect(chainsOfSegment(chains, 4).map((c) => c.chainId)).toEqual([1]);
    expect(slicesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(slicesOf([], 2)).toEqual([]);
  });
});

describe("the detectors' view of active chains", () => {
  it('says no only while a fresh answer found no chain of the kinds asked', async () => {
    const clock = new ManualClock();
    const starter = new ChainStarterRecorder();
    const view = new ActiveChainsView(starter, clock, 5000);
    expect(view.mayHave('s1', ['abandoned_cart'])).toBe(true);
    expect(await view.of('s1', 'abandoned_cart')).toEqual([]);
    expect(view.mayHave('s1', ['abandoned_cart'])).toBe(false);
    expect(view.mayHave('s1', ['abandoned_cart', 'abandoned_wish'])).toBe(true);

    starter.setChains('s1', [cart(1, 60)]);
    clock.advance(4999);
    expect(view.mayHave('s1', ['abandoned_cart'])).toBe(false);
    clock.advance(1);
    expect(view.mayHave('s1', ['abandoned_cart'])).toBe(true);
    expect(await view.of('s1', 'abandoned_cart')).toHaveLength(1);
    expect(view.mayHave('s1', ['abandoned_cart'])).toBe(true);
    expect(view.mayHave('s2', ['abandoned_cart'])).toBe(true);
    // The answer it lacked was asked for in the background.
    await new Promise((resolve) => setImmediate(resolve));
    expect(view.mayHave('s2', ['abandoned_cart'])).toBe(false);
  });
});
