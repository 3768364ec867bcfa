import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { pingDb, type DbHandle } from '../handle.js';
import { isKeptPrepared } from '../prepared-query.js';
import type { Database } from '../types.js';
import { StorageTimings } from './storage-timings.js';
import { WAL_CHECKPOINT_DEFAULTS, WalCheckpointer } from './wal-checkpoint.js';
import { WalSyncer } from './wal-sync.js';
import { LockAwareSqliteDialect, ThreadWriteLock } from './write-lock.js';

/** A connection to Patron's SQLite file, tuned as docs/storage.md describes. */
export function createSqliteHandle(options: { file: string; checkpoints?: boolean; writeLock?: SharedArrayBuffer }): DbHandle {
  const { file, checkpoints = true } = options;
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  // WAL lets readers run beside the writer. NORMAL: a commit survives a killed process
  // but reaches the disk only through `durable()`, which fsyncs the WAL on the thread
  // pool instead of stalling the event loop at every commit (wal-sync.ts).
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Another connection's write lock is waited for from the event loop, not in SQLite's
  // sleeping busy handler (write-lock.ts).
  database.pragma('busy_timeout = 0');
  database.pragma('foreign_keys = ON');
  // Statement and savepoint journals (a GroupWrite.runContained write is a savepoint in a
  // shared transaction) in memory: on disk, one past 64 KiB is a temporary file created,
  // written a page at a time (two writes a page) and deleted, dozens of system calls for
  // one checkout apply. Also keeps temporary tables and sorts in memory.
  database.pragma('temp_store = MEMORY');
  // A log that grew while readers kept it from starting over is cut back to this length
  // when it does start over (wal-checkpoint.ts).
  database.pragma(`journal_size_limit = ${WAL_CHECKPOINT_DEFAULTS.forceRestartBytes}`);
  const threadLock = new ThreadWriteLock(options.writeLock);
  const timings = new StorageTimings();
  const db = new Kysely<Database>({
    dialect: new LockAwareSqliteDialect({ database: withStatementCache(database), raw: database, threadLock, timings }),
  });
  const wal = file === ':memory:' ? undefined : new WalSyncer(`${file}-wal`, undefined, timings);
  // Checkpoints in a worker thread, not inside a request's commit (wal-checkpoint.ts).
  const checkpointer = file === ':memory:' || !checkpoints ? undefined : new WalCheckpointer(file, database, {}, timings);
  if (!checkpoints) database.pragma('wal_autocheckpoint = 0');
  return {
    db,
    dialect: 'sqlite',
    writeLock: threadLock.buffer,
    ping: () => pingDb(db),
    durable: () => wal?.sync() ?? Promise.resolve(),
    storage: { timings, checkpoints: () => checkpointer?.stats() },
    async destroy() {
      await wal?.close();
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/** How many prepared statements one SQLite connection keeps (least recently used go first). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;
/** Statements longer than this (in characters of SQL) are prepared afresh each time. */
export const SQLITE_CACHED_SQL_MAX_LENGTH = 4_096;

/**
 * Kysely prepares every query anew, and on the hot path (a /push batch runs about ten
 * statements) preparing costs as much as running. Statements are cached by their SQL
 * text; Kysely compiles the same query shape to the same text with parameters apart, so
 * the cache holds the service's query shapes, bounded for the multi-row inserts whose
 * text varies with their row count. Kysely runs one query at a time on its one SQLite
 * connection, so a cached statement is never in use twice.
 */
function withStatementCache(database: SqliteDatabase.Database, size = SQLITE_STATEMENT_CACHE_SIZE): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached) {
        cache.delete(text);
        cache.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      // A long text is a multi-row statement whose row count varies: preparing it is cheap
      // next to running it, and keeping every size would hold megabytes of statements.
      // A marked one is one of a few fixed texts (db/prepared-query.ts keptPrepared), kept.
      if (text.length > SQLITE_CACHED_SQL_MAX_LENGTH && !isKeptPrepared(text)) return statement;
      cache.set(text, statement);
      if (cache.size > size) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      return statement;
    },
  };
}
