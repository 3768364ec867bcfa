import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { PromiseCache } from '../../../src/modules/catalog/promise-cache.js';

function cache(options: { maxEntries?: number; maxWeight?: number } = {}) {
  const clock = new ManualClock();
  const computed: string[] = [];
  const c = new PromiseCache<string[]>({
    clock,
    ttlMs: 60_000,
    maxEntries: options.maxEntries ?? 100,
    maxWeight: options.maxWeight ?? 1_000,
    weigh: (value) => value.length,
  });
  const get = (key: string, value: string[] = [key]) =>
    c.getOrCompute(key, () => {
      computed.push(key);
      return Promise.resolve(value);
    });
  return { c, clock, computed, get };
}

/** Lets the cache's bookkeeping of settled computations run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PromiseCache', () => {
  it('serves a key from the cache until its time to live has passed', async () => {
    const { clock, computed, get } = cache();
    await get('a');
    clock.advance(59_999);
    await get('a');
    expect(computed).toEqual(['a']);
    clock.advance(1);
    await get('a');
    expect(computed).toEqual(['a', 'a']);
  });

  it('shares one computation between concurrent misses of a key', async () => {
    const { computed, get } = cache();
    const [first, second] = await Promise.all([get('a'), get('a')]);
    expect(first).toBe(second);
    expect(computed).toEqual(['a']);
  });

  it('forgets a computation that failed', async () => {
    const { c } = cache();
    await expect(c.getOrCompute('a', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await settle();
    await expect(c.getOrCompute('a', () => Promise.resolve(['ok']))).resolves.toEqual(['ok']);
  });

  it('keeps at most maxEntries, dropping the oldest first', async () => {
    const { c, computed, get } = cache({ maxEntries: 2 });
    await get('a');
    await get('b');
    await get('c');
    await settle();
    expect(c.size).toBe(2);
    await get('b');
    await get('c');
    await get('a');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps the total weight under maxWeight, and does not keep a value heavier than all of it', async () => {
    const { c, computed, get } = cache({ maxWeight: 5 });
    await get('a', ['1', '2', '3']);
    await get('b', ['1', '2']);
    await settle();
    expect(c.size).toBe(2);
    await get('c', ['1']);
    await settle();
    expect(c.size).toBe(2);
    await get('huge', ['1', '2', '3', '4', '5', '6']);
    await settle();
    await get('huge', ['1', '2', '3', '4', '5', '6']);
    expect(computed.filter((key) => key === 'huge')).toHaveLength(2);
    expect(c.size).toBeLessThanOrEqual(2);
  });

  it('drops expired entries before live ones when an entry was computed again', async () => {
    const { c, clock, computed, get } = cache({ maxEntries: 2 });
    await get('a');
    await get('b');
    clock.advance(60_000);
    // Both expired; `a` is computed again, so its first insertion is no longer its own.
    await get('a');
    await get('c');
    await settle();
    expect(c.size).toBe(2);
    await get('a');
    await get('c');
    expect(computed).toEqual(['a', 'b', 'a', 'c']);
  });

  it('stays correct over many more insertions than it keeps', async () => {
    const { c, computed, get } = cache({ maxEntries: 10, maxWeight: 1_000_000 });
    for (let i = 0; i < 5_000; i += 1) await get(`k${i}`);
    await settle();
    expect(c.size).toBe(10);
    for (let i = 4_990; i < 5_000; i += 1) await get(`k${i}`);
    expect(computed).toHaveLength(5_000);
  });

  it('answers a live entry with get, without computing, and nothing once it expired', async () => {
    const { c, clock, get } = cache();
    expect(c.get('a')).toBeUndefined();
    await get('a', ['x']);
    await expect(c.get('a')).resolves.toEqual(['x']);
    clock.advance(60_000);
    expect(c.get('a')).toBeUndefined();
  });

  it('spares an entry read since its turn once, so that what is read often stays (second chance)', async () => {
    const { c, computed, get } = cache({ maxEntries: 3 });
    await get('a');
    await get('b');
    await get('c');
    await get('a'); // a hit: a is spared at its next turn
    await get('d'); // over the bound: a goes to the back, b (never read again) goes
    await settle();
    expect(c.size).toBe(3);
    expect(c.get('b')).toBeUndefined();
    await get('a');
    expect(computed).toEqual(['a', 'b', 'c', 'd']);
  });

  it('spares an entry once per read: one not read again since it was spared goes at its next turn', async () => {
    const { c, computed, get } = cache({ maxEntries: 2 });
    await get('a');
    await get('b');
    await get('a'); // a read: spared once
    await get('c'); // a to the back, b goes; queue: c, a
    await get('d'); // c goes (never read), queue: a, d
    await get('e'); // a was not read since it was spared: it goes
    await settle();
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('ends its eviction when every entry was read, and still keeps its bound', async () => {
    const { c, get } = cache({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await get(key);
    for (const key of ['a', 'b', 'c']) expect(c.get(key)).toBeDefined();
    await get('d');
    await settle();
    expect(c.size).toBe(3);
  });

  it('does not spare an expired entry, read or not', async () => {
    const { c, clock, get } = cache({ maxEntries: 2 });
    await get('a');
    await get('a');
    clock.advance(60_000);
    await get('b');
    await get('c');
    await settle();
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBeDefined();
  });
});
