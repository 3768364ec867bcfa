/**
 * Runs the tasks of one key one at a time, in arrival order; different keys run side by
 * side. The checkout keys it by order, so that an apply, a confirm and a cancel of one
 * order never interleave their steps inside one process (their status moves are also
 * conditional UPDATEs, which hold across processes).
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
