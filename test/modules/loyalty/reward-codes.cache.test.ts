import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { RewardCodesCache } from '../../../src/modules/loyalty/reward-codes.cache.js';

/** A loader the test resolves by hand, counting its calls per shop. */
function manualLoader() {
  const pending: { shopId: string; resolve: (codes: string[]) => void; reject: (error: Error) => void }[] = [];
  const load = (shopId: string) =>
    new Promise<string[]>((resolve, reject) => {
      pending.push({ shopId, resolve, reject });
    });
  return { load, pending };
}

describe('RewardCodesCache', () => {
  const options = (clock: ManualClock) => ({ clock, refreshMs: 10_000, maxShops: 2 });

  it('answers maybe for a shop not loaded yet, loads it once, then answers from the codes', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    expect(cache.mayReward('s1', 'signed_up')).toBe(true);
    expect(cache.mayReward('s1', 'other')).toBe(true);
    expect(loader.pending).toHaveLength(1);
    loader.pending[0]?.resolve(['signed_up']);
    await cache.settled();
    expect(cache.mayReward('s1', 'signed_up')).toBe(true);
    expect(cache.mayReward('s1', 'other')).toBe(false);
    expect(loader.pending).toHaveLength(1);
  });

  it('reads the codes again after refreshMs, answering from the old ones meanwhile', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    cache.mayReward('s1', 'x');
    loader.pending[0]?.resolve([]);
    await cache.settled();
    clock.advance(9_999);
    expect(cache.mayReward('s1', 'x')).toBe(false);
    expect(loader.pending).toHaveLength(1);
    clock.advance(1);
    expect(cache.mayReward('s1', 'x')).toBe(false);
    expect(cache.mayReward('s1', 'x')).toBe(false);
    expect(loader.pending).toHaveLength(2);
    loader.pending[1]?.resolve(['x']);
    await cache.settled();
    expect(cache.mayReward('s1', 'x')).toBe(true);
  });

  it('never answers from codes read two refreshMs ago or more: a quiet shop is a maybe again', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    cache.mayReward('s1', 'x');
    loader.pending[0]?.resolve([]);
    await cache.settled();
    clock.advance(20_000);
    expect(cache.mayReward('s1', 'x')).toBe(true);
    expect(loader.pending).toHaveLength(2);
  });

  it('does not store a load that an invalidation overtook', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    cache.mayReward('s1', 'x');
    cache.invalidate('s1');
    expect(cache.mayReward('s1', 'x')).toBe(true);
    expect(loader.pending).toHaveLength(2);
    // The first load read the rules before the change: it must not win.
    loader.pending[0]?.resolve([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.mayReward('s1', 'x')).toBe(true);
    loader.pending[1]?.resolve(['x']);
    await cache.settled();
    expect(cache.mayReward('s1', 'x')).toBe(true);
    expect(cache.mayReward('s1', 'y')).toBe(false);
  });

  it('keeps answering maybe when a load fails, and tries again on the next event', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    cache.mayReward('s1', 'x');
    loader.pending[0]?.reject(new Error('database unavailable'));
    await cache.settled();
    expect(cache.mayReward('s1', 'x')).toBe(true);
    expect(loader.pending).toHaveLength(2);
  });

  it('holds at most maxShops shops', async () => {
    const clock = new ManualClock();
    const loader = manualLoader();
    const cache = new RewardCodesCache(loader.load, options(clock));
    for (const shop of ['s1', 's2', 's3']) cache.mayReward(shop, 'x');
    for (const p of loader.pending) p.resolve([]);
    await cache.settled();
    expect(cache.mayReward('s1', 'x')).toBe(true);
    expect(cache.mayReward('s3', 'x')).toBe(false);
  });
});
