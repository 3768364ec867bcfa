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

  describe('getOrLoad', () => {
    it('loads a missing key once, stores it and answers it until it expires', async () => {
      const clock = new ManualClock();
      const cache = new TtlCache<string, number>({ max: 10, ttlMs: 1000, clock });
      let loads = 0;
      const load = () => Promise.resolve(++loads);
      expect(await cache.getOrLoad('a', load)).toBe(1);
      expect(await cache.getOrLoad('a', load)).toBe(1);
      clock.advance(1000);
      expect(await cache.getOrLoad('a', load)).toBe(2);
      expect(loads).toBe(2);
    });

    it('shares one load between callers that miss the same key at once', async () => {
      const cache = new TtlCache<string, number>({ max: 10, ttlMs: 1000, clock: new ManualClock() });
      let loads = 0;
      const load = async () => {
        loads += 1;
        await new Promise((r) => setTimeout(r, 5));
        return 7;
      };
      const values = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad('a', load)));
      expect(values).toEqual(Array(20).fill(7));
      expect(loads).toBe(1);
    });

    it('does not store a value loaded before a delete of its key', async () => {
      const cache = new TtlCache<string, string>({ max: 10, ttlMs: 1000, clock: new ManualClock() });
      let release: (value: string) => void = () => undefined;
      const stale = cache.getOrLoad('a', () => new Promise<string>((r) => (release = r)));
      cache.delete('a');
      const fresh = cache.getOrLoad('a', () => Promise.resolve('after the write'));
      release('before the write');
      expect(await stale).toBe('before the write');
      expect(await fresh).toBe('after the write');
      expect(cache.get('a')).toBe('after the write');
    });

    it('clears every entry, and stores no value loaded before the clear', async () => {
      const cache = new TtlCache<string, string>({ max: 10, ttlMs: 1000, clock: new ManualClock() });
      cache.set('a', 'kept');
      let release: (value: string) => void = () => undefined;
      const stale = cache.getOrLoad('b', () => new Promise<string>((r) => (release = r)));
      cache.clear();
      expect(cache.get('a')).toBeUndefined();
      release('before the clear');
      expect(await stale).toBe('before the clear');
      expect(cache.get('b')).toBeUndefined();
      expect(cache.size).toBe(0);
    });

    it('stores nothing when the load fails, and the next caller loads again', async () => {
      const cache = new TtlCache<string, number>({ max: 10, ttlMs: 1000, clock: new ManualClock() });
      await expect(cache.getOrLoad('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
      expect(cache.size).toBe(0);
      expect(await cache.getOrLoad('a', () => Promise.resolve(3))).toBe(3);
    });
  });
});
