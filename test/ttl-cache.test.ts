import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { TtlCache } from '../src/ttl-cache.js';

describe('TtlCache', () => {
  it('answers a stored value until its time to live has passed', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string, number>({ max: 10, ttlMs: 1000, clock });
    cache.set('a', 1);
    clock.advance(999);
    expect(cache.get('a')).toBe(1);
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the least recently stored entry beyond its size', () => {
    const cache = new TtlCache<string, number>({ max: 2, ttlMs: 1000, clock: new ManualClock() });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('forgets a deleted key', () => {
    const cache = new TtlCache<string, number>({ max: 2, ttlMs: 1000, clock: new ManualClock() });
    cache.set('a', 1);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
