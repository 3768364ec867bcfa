import type { Clock } from './clock.js';

/**
 * A small in-process cache: entries expire `ttlMs` after they were stored (by the
 * injected clock), and the least recently stored entry goes first once `max` is reached.
 * For lookups on the hot path whose answer may lag the database by at most `ttlMs`.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

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
  }

  get size(): number {
    return this.entries.size;
  }
}
