import { sql, type Kysely } from 'kysely';
import type { Dialect } from './dialect.js';
import type { StorageTimings } from './sqlite/storage-timings.js';
import type { WalCheckpointStats } from './sqlite/wal-checkpoint.js';
import type { Database } from './types.js';

/**
 * A connection to Patron's database, whichever engine holds it: SQLite (db/sqlite/) or
 * PostgreSQL (db/postgres/). docs/storage.md says how a write becomes durable on each.
 */
export interface DbHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** SQLite: the lock this connection's writes take, for another thread's connection to share (db/sqlite/write-lock.ts). */
  readonly writeLock?: SharedArrayBuffer;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Resolves once every transaction committed before the call is on disk. PostgreSQL's
   * commit is already durable; SQLite's WAL is fsynced off the event loop (db/sqlite/wal-sync.ts).
   */
  durable(): Promise<void>;
  /** SQLite: what the file made this connection wait for, and its checkpoints (for /metrics). */
  readonly storage?: SqliteStorage;
  destroy(): Promise<void>;
}

export interface SqliteStorage {
  /** Lock waits, fsyncs and checkpoints as they happen (db/sqlite/storage-timings.ts). */
  readonly timings: StorageTimings;
  /** The checkpoints of the file; undefined on a connection that runs none (the job thread's). */
  checkpoints(): WalCheckpointStats | undefined;
}

export type DbOptions =
  /**
   * A second connection of a process (process/job-thread.ts) passes `checkpoints: false`
   * (the first one runs them) and the first one's `writeLock` (db/sqlite/write-lock.ts).
   */
  | { kind: 'sqlite'; file: string; checkpoints?: boolean; writeLock?: SharedArrayBuffer }
  | { kind: 'postgres'; url: string; poolSize?: number };

/** True when the database answers a trivial query. */
export async function pingDb(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
