/**
 * What the SQLite file made this process wait for, as it happens: for /metrics
 * (observability/metrics.ts), where an operator reads why a request's answer was late.
 *
 * On SQLite an acknowledged write waits for three things beside its own statements: the
 * write lock, which another thread or process of the file may hold (db/sqlite/write-lock.ts);
 * the fsync of the write-ahead log (db/sqlite/wal-sync.ts); and, now and then, a checkpoint that
 * holds writers back while it copies the log into the database file and waits for its
 * readers (db/sqlite/wal-checkpoint.ts). On a shared or slow disk each of them has a long tail,
 * and it is the tail that makes a request's p99: the slowest answers are the ones behind
 * a fsync tens of times its median, or behind a checkpoint that held the lock.
 *
 * A connection's timings are its own: the job thread's connection (process/job-thread.ts)
 * has its own, which no /metrics serves.
 */

export type StorageWait =
  /** An fsync of the write-ahead log, from its start to its end. */
  | 'wal_sync'
  /** A write transaction (or a write outside one) from asking for the write lock to holding it. */
  | 'write_lock_wait';

/** The checkpoint modes of SQLite (`wal_checkpoint(MODE)`), lower case. */
export type CheckpointMode = 'passive' | 'full' | 'restart';

export interface StorageTimingListener {
  wait(kind: StorageWait, seconds: number): void;
  checkpoint(mode: CheckpointMode, seconds: number): void;
}

/** The timings of one connection, handed to whoever listens (nothing is kept). */
export class StorageTimings {
  private readonly listeners = new Set<StorageTimingListener>();

  /** Starts listening; the returned function stops it. */
  subscribe(listener: StorageTimingListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Whether anyone listens: the callers skip their clock readings otherwise. */
  get observed(): boolean {
    return this.listeners.size > 0;
  }

  /** The clock reading to time a wait from; undefined (and no clock read) when nobody listens. */
  start(): number | undefined {
    return this.observed ? performance.now() : undefined;
  }

  /** Reports the wait timed from `started` (start()'s reading); nothing when it was not timed. */
  waited(kind: StorageWait, started: number | undefined): void {
    if (started !== undefined) this.wait(kind, (performance.now() - started) / 1000);
  }

  wait(kind: StorageWait, seconds: number): void {
    for (const listener of this.listeners) listener.wait(kind, seconds);
  }

  checkpoint(mode: CheckpointMode, seconds: number): void {
    for (const listener of this.listeners) listener.checkpoint(mode, seconds);
  }
}
