/**
 * Coalesces lookups by key that arrive in one turn of the event loop into one read per
 * group of at most `maxBatch` keys. Requests parsed from many sockets in one poll phase
 * each ask for their own product; the loader holds them until the check phase
 * (setImmediate) of that same turn and then asks the database once per group, so that a
 * burst of misses costs one statement (one round trip, one plan execution and one row
 * description on PostgreSQL) instead of one each. A lookup waits for nothing but the end
 * of the turn it was made in.
 *
 * A key asked twice in a batch is read once. A read that fails rejects every lookup of
 * its batch, and only those. Keys and groups are plain strings; the read decides what a
 * group is (here: a shop, so that one statement never mixes two tenants).
 */
export interface BatchLoaderOptions<V> {
  /** Keys per read at most; a fuller batch is split. */
  readonly maxBatch: number;
  /** The values of those keys that exist, by key; a key it leaves out resolves undefined. */
  readonly read: (group: string, keys: readonly string[]) => Promise<ReadonlyMap<string, V>>;
}

interface Waiter<V> {
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

export class BatchLoader<V> {
  /** Per group, the keys asked this turn and who waits for each. */
  private pending = new Map<string, Map<string, Waiter<V>[]>>();
  private scheduled = false;

  constructor(private readonly options: BatchLoaderOptions<V>) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1) throw new RangeError('maxBatch must be a positive integer');
  }

  load(group: string, key: string): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      let keys = this.pending.get(group);
      if (!keys) {
        keys = new Map();
        this.pending.set(group, keys);
      }
      const waiters = keys.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else keys.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const [group, keys] of pending) {
      const all = [...keys.keys()];
      for (let start = 0; start < all.length; start += this.options.maxBatch) {
        void this.readBatch(group, all.slice(start, start + this.options.maxBatch), keys);
      }
    }
  }

  private async readBatch(group: string, batch: readonly string[], waiters: ReadonlyMap<string, Waiter<V>[]>): Promise<void> {
    let found: ReadonlyMap<string, V>;
    try {
      found = await this.options.read(group, batch);
    } catch (error) {
      for (const key of batch) for (const waiter of waiters.get(key)!) waiter.reject(error);
      return;
    }
    for (const key of batch) {
      const value = found.get(key);
      for (const waiter of waiters.get(key)!) waiter.resolve(value);
    }
  }
}
