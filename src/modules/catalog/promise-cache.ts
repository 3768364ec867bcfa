import type { Clock } from '../../clock.js';

/**
 * A small in-process cache of computations (promises) with a time to live read from the injected clock, bounded by
 * entry count and by a total weight (e.g. the nodes of cached category trees), so that
 * many parameter combinations cannot grow it without end. When full, it evicts in
 * insertion order with a second chance (CLOCK): an entry read since its last turn goes
 * to the back of the queue once instead of out, so that what is read often stays, as
 * under LRU, while a hit costs one flag and no reordering. It holds promises, so
 * concurrent misses of one key share one computation; a computation that fails is
 * forgotten at once.
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
  readonly key: string;
  /** Which insertion this is, so a queued turn of an entry since replaced is known. */
  readonly seq: number;
  readonly promise: Promise<V>;
  readonly expiresAt: number;
  weight: number;
  /** Read since it was queued last: spared once by eviction. */
  referenced: boolean;
}

export class PromiseCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /**
   * Keys in insertion order (which is expiry order: every entry lives the same TTL),
   * oldest from `head`, with the insertion's seq; a turn whose entry was removed or
   * replaced meanwhile is skipped. Eviction reads this rather than walking the Map from
   * its start: the Map keeps the slots of deleted entries until it rehashes, and a walk
   * from the start over them made every miss of a full cache cost more than the read it
   * saved. Turns hold no values, so a removed value is not kept alive by its turn.
   */
  private queue: { readonly key: string; readonly seq: number }[] = [];
  private head = 0;
  private seq = 0;
  private totalWeight = 0;

  constructor(private readonly options: PromiseCacheOptions<V>) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value of `key` while it lives, without computing anything. */
  get(key: string): Promise<V> | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.expiresAt <= this.options.clock.now()) return undefined;
    hit.referenced = true;
    return hit.promise;
  }

  /** The cached value of `key`, or the result of `compute`, cached for the TTL. */
  getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const now = this.options.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      hit.referenced = true;
      return hit.promise;
    }
    if (hit) this.remove(hit);

    const promise = compute();
    this.seq += 1;
    const entry: Entry<V> = { key, seq: this.seq, promise, expiresAt: now + this.options.ttlMs, weight: 1, referenced: false };
    this.entries.set(key, entry);
    this.queue.push({ key, seq: entry.seq });
    this.totalWeight += entry.weight;
    promise.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        const weight = Math.max(1, this.options.weigh?.(value) ?? 1);
        this.totalWeight += weight - entry.weight;
        entry.weight = weight;
        // A value heavier than the whole budget is served once and not kept.
        if (weight > this.options.maxWeight) this.remove(entry);
        this.evict(now);
      },
      () => {
        if (this.entries.get(key) === entry) this.remove(entry);
      },
    );
    this.evict(now);
    return promise;
  }

  clear(): void {
    this.entries.clear();
    this.queue = [];
    this.head = 0;
    this.totalWeight = 0;
  }

  /**
   * Drops expired entries, then, while over a bound, the oldest not read since its turn
   * (one read since then sends it to the back instead); stops at the first entry that
   * stays where it is. An entry is spared at most once per pass of the queue, so this
   * ends. Entries sent back are out of expiry order; an expired one is never served
   * (get checks) and goes when its turn comes.
   */
  private evict(now: number): void {
    while (this.head < this.queue.length) {
      const turn = this.queue[this.head]!;
      const entry = this.entries.get(turn.key);
      if (entry?.seq === turn.seq) {
        const over = this.entries.size > this.options.maxEntries || this.totalWeight > this.options.maxWeight;
        const live = entry.expiresAt > now;
        if (live && !over) break;
        if (live && entry.referenced) {
          entry.referenced = false;
          this.queue.push(turn);
        } else {
          this.remove(entry);
        }
      }
      this.head += 1;
    }
    // Dropping the walked-over prefix now and then keeps the queue near the live entries.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private remove(entry: Entry<V>): void {
    this.entries.delete(entry.key);
    this.totalWeight -= entry.weight;
  }
}
