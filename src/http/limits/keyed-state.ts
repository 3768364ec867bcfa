/**
 * The memory behind every limit: one small record per key (a client address, a shop),
 * kept in insertion order and touched on use, so the least recently seen key goes
 * first once `maxKeys` is reached. An attacker who rotates addresses therefore costs
 * at most `maxKeys` records; the records pushed out are those of keys idle the longest,
 * and forgetting one only ever makes its next request look like a first one.
 */
export class KeyedState<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly maxKeys: number) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new Error('maxKeys must be a positive integer.');
  }

  /** The record of `key`, marked as the most recently used; created by `fresh` when absent. */
  use(key: string, fresh: () => V): V {
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    const created = fresh();
    this.entries.set(key, created);
    if (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return created;
  }

  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
