import type { Clock } from '../../clock.js';

/**
 * A small in-process cache of computations (promises) with a time to live read from the injected clock, bounded by
 * entry count and by a total weight (e.g. the nodes of cached category trees), so that
 * many parameter combinations cannot grow it without end. When full, the oldest entries
 * go first. It holds promises, so concurrent misses of one key share one computation; a
 * computation that fails is forgotten at once.
 */
export interface PromiseCacheOptions<V> {
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly maxWeight: number;
  /** The weight of a value once computed (default 1). */
  readonly weigh?: (value: V) => number;
}

interface Entry<V> {
  readonly promise: Promise<V>;
  readonly expiresAt: number;
  weight: number;
}

export class PromiseCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private totalWeight = 0;

  constructor(private readonly options: PromiseCacheOptions<V>) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value of `key` while it lives, without computing anything. */
  get(key: string): Promise<V> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > this.options.clock.now() ? hit.promise : undefined;
  }

  /** The cached value of `key`, or the result of `compute`, cached for the TTL. */
  getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const now = this.options.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.promise;
    if (hit) this.remove(key, hit);

    const promise = compute();
    const entry: Entry<V> = { promise, expiresAt: now + this.options.ttlMs, weight: 1 };
    this.entries.set(key, entry);
    this.totalWeight += entry.weight;
    promise.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        const weight = Math.max(1, this.options.weigh?.(value) ?? 1);
        this.totalWeight += weight - entry.weight;
        entry.weight = weight;
        // A value heavier than the whole budget is served once and not kept.
        if (weight > this.options.maxWeight) this.remove(key, entry);
        this.evict(now);
      },
      () => {
        if (this.entries.get(key) === entry) this.remove(key, entry);
      },
    );
    this.evict(now);
    return promise;
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  /**
   * Map iteration is insertion order and every entry lives the same TTL, so the expired
   * entries are a prefix: the walk stops at the first live one (a full scan at every
   * miss made a large cache cost more than the reads it saved).
   */
  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      const over = this.entries.size > this.options.maxEntries || this.totalWeight > this.options.maxWeight;
      if (entry.expiresAt > now && !over) break;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}
