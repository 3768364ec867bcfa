import { AppError } from '../errors.js';

/**
 * Group commit: many callers share one transaction. `submit(item)` resolves once the
 * transaction that includes the item has committed, so an acknowledged write is durable.
 *
 * While a commit runs, new submissions collect; when it ends, everything collected (up
 * to `maxBatch`) is committed at once. There is no timer: an idle committer starts at
 * the end of the current event-loop turn (setImmediate), so the requests parsed in the
 * same turn share the first commit, and under load the batch grows by itself to what
 * arrived during the previous commit. A timer would add its delay to every request and
 * cap throughput at one batch per tick.
 *
 * Failure isolation: when a batch's transaction fails, its items are committed again one
 * by one, each in its own transaction, so one bad item fails only its own caller.
 */

/** Commits the items in ONE transaction and returns one result per item, in order. */
export type CommitBatch<T, R> = (items: readonly T[]) => Promise<readonly R[]>;

export interface GroupCommitOptions {
  /** The most items one transaction takes (default 1,000). */
  readonly maxBatch?: number;
  /**
   * Resolves once what was committed before the call is on disk (DbHandle.durable). The
   * callers of a batch are answered only after it; the next batch's transaction does not
   * wait for it, so commits go on while the disk flushes.
   */
  readonly durable?: () => Promise<void>;
}

export interface GroupCommitStats {
  /** Transactions that committed, batched or isolated. */
  readonly commits: number;
  /** Items committed. */
  readonly committed: number;
  /** Items whose own transaction failed (their callers got the error). */
  readonly failed: number;
  /** Batches whose transaction failed, whose items were then retried one by one. */
  readonly splitBatches: number;
  /** The largest batch committed in one transaction. */
  readonly largestBatch: number;
  /** Items waiting for a commit (not counting the batch being committed). */
  readonly queued: number;
}

interface Entry<T, R> {
  readonly item: T;
  /** Answered once committed, without waiting for the disk (submit's `durable: false`). */
  readonly committedOnly: boolean;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export const DEFAULT_MAX_BATCH = 1000;

export class GroupCommitter<T, R> {
  private readonly maxBatch: number;
  private pending: Entry<T, R>[] = [];
  private running: Promise<void> | undefined;
  private scheduled = false;
  private closed = false;
  private readonly flushing = new Set<Promise<void>>();
  private stats: { -readonly [K in Exclude<keyof GroupCommitStats, 'queued'>]: GroupCommitStats[K] } = {
    commits: 0,
    committed: 0,
    failed: 0,
    splitBatches: 0,
    largestBatch: 0,
  };

  constructor(
    private readonly commitBatch: CommitBatch<T, R>,
    options: GroupCommitOptions = {},
  ) {
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new Error(`maxBatch must be a positive integer, got ${maxBatch}`);
    this.maxBatch = maxBatch;
    this.durable = options.durable;
  }

  private readonly durable: (() => Promise<void>) | undefined;

  /**
   * Resolves with the item's result after the commit that includes it (and, unless
   * `durable` is false, after it is on disk); rejects with its own error.
   */
  submit(item: T, options: { durable?: boolean } = {}): Promise<R> {
    if (this.closed) {
      return Promise.reject(new AppError('UNAVAILABLE', 'The server is shutting down; try again.'));
    }
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, committedOnly: options.durable === false, resolve, reject });
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.start();
        });
      }
    });
  }

  /** Items waiting for a commit (not counting the batch being committed). */
  get queued(): number {
    return this.pending.length;
  }

  snapshot(): GroupCommitStats {
    return { ...this.stats, queued: this.pending.length };
  }

  /** Refuses new items and resolves once everything submitted before has been committed or failed. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.running || this.pending.length > 0) {
      this.start();
      await this.running;
    }
    await Promise.allSettled([...this.flushing]);
  }

  private start(): void {
    if (this.running || this.pending.length === 0) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      // Items submitted after the loop's last look (by callers resuming from this very
      // commit) would otherwise wait for a submission that may never come.
      this.start();
    });
  }

  private async loop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      await this.commit(batch);
    }
  }

  private async commit(batch: readonly Entry<T, R>[]): Promise<void> {
    let results: readonly R[];
    try {
      results = await this.commitBatch(batch.map((e) => e.item));
    } catch (error) {
      if (batch.length === 1) {
        this.stats.failed += 1;
        batch[0]?.reject(error);
        return;
      }
      this.stats.splitBatches += 1;
      for (const entry of batch) await this.commit([entry]);
      return;
    }
    this.stats.commits += 1;
    this.stats.committed += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    if (results.length !== batch.length) {
      // Committed already, so retrying would write twice: a bug in commitBatch, reported to every caller.
      const error = new Error(`A batch of ${batch.length} items returned ${results.length} results`);
      for (const entry of batch) entry.reject(error);
      return;
    }
    const waiting: [Entry<T, R>, R][] = [];
    batch.forEach((entry, i) => {
      if (!this.durable || entry.committedOnly) entry.resolve(results[i] as R);
      else waiting.push([entry, results[i] as R]);
    });
    if (!this.durable || waiting.length === 0) return;
    const flushed = this.durable().then(
      () => waiting.forEach(([entry, result]) => entry.resolve(result)),
      // Committed but maybe not on disk: the callers must not report success.
      (error: unknown) => waiting.forEach(([entry]) => entry.reject(error)),
    );
    this.flushing.add(flushed);
    void flushed.finally(() => this.flushing.delete(flushed));
  }
}
