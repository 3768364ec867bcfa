import type { Clock } from './clock.js';

/**
 * A small in-process cache: entries expire `ttlMs` after they were stored (by the
 * injected clock), and the least recently stored entry goes first once `max` is reached.
 * For lookups on the hot path whose answer may lag the database by at most `ttlMs`.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  /** Loads in flight by getOrLoad, so that concurrent misses of a key share one. */
  private readonly loading = new Map<K, Promise<V>>();

  constructor(private readonly options: { readonly max: number; readonly ttlMs: number; readonly clock: Clock }) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * The stored value, or `load()`'s, which is then stored. Callers that miss the same key
   * while its load runs share that load. A delete while it runs (a write dropped the
   * key) detaches it: its callers still get its value, but it is not stored, and the
   * next caller loads anew, so a value read before the write never outlives it.
   */
  getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.options.clock.now()) return Promise.resolve(entry.value);
    const running = this.loading.get(key);
    if (running) return running;
    const loaded: Promise<V> = load().then(
      (value) => {
        if (this.loading.get(key) === loaded) {
          this.loading.delete(key);
          this.set(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.options.clock.now() + this.options.ttlMs });
    if (this.entries.size > this.options.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Drops every entry, and detaches the loads under way as `delete` does. */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
