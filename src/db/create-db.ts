import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import pg from 'pg';
import { driverErrorCode, type Dialect } from './dialect.js';
import { isKeptPrepared } from './prepared-query.js';
import { LockAwareSqliteDialect, ThreadWriteLock } from './sqlite-lock.js';
import { StorageTimings } from './storage-timings.js';
import { WAL_CHECKPOINT_DEFAULTS, WalCheckpointer, type WalCheckpointStats } from './wal-checkpoint.js';
import { WalSyncer } from './wal-sync.js';
import type { Database } from './types.js';

// int8 (bigint) columns hold millisecond timestamps and counters, all far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));

export interface DbHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** SQLite: the lock this connection's writes take, for another thread's connection to share (db/sqlite-lock.ts). */
  readonly writeLock?: SharedArrayBuffer;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Resolves once every transaction committed before the call is on disk. PostgreSQL's
   * commit is already durable; SQLite's WAL is fsynced off the event loop (wal-sync.ts).
   */
  durable(): Promise<void>;
  /** SQLite: what the file made this connection wait for, and its checkpoints (for /metrics). */
  readonly storage?: SqliteStorage;
  destroy(): Promise<void>;
}

export interface SqliteStorage {
  /** Lock waits, fsyncs and checkpoints as they happen (storage-timings.ts). */
  readonly timings: StorageTimings;
  /** The checkpoints of the file; undefined on a connection that runs none (the job thread's). */
  checkpoints(): WalCheckpointStats | undefined;
}

export type DbOptions =
  /**
   * A second connection of a process (process/job-thread.ts) passes `checkpoints: false`
   * (the first one runs them) and the first one's `writeLock` (db/sqlite-lock.ts).
   */
  | { kind: 'sqlite'; file: string; checkpoints?: boolean; writeLock?: SharedArrayBuffer }
  | { kind: 'postgres'; url: string; poolSize?: number };

export function dbOptionsFromConfig(config: { databaseUrl: string | undefined; dataDir: string }): DbOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'sqlite', file: path.join(config.dataDir, 'patron.sqlite') };
}

export function createDb(options: DbOptions): DbHandle {
  return options.kind === 'sqlite' ? createSqlite(options) : createPostgres(options);
}

function createSqlite(options: { file: string; checkpoints?: boolean; writeLock?: SharedArrayBuffer }): DbHandle {
  const { file, checkpoints = true } = options;
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  // WAL lets readers run beside the writer. NORMAL: a commit survives a killed process
  // but reaches the disk only through `durable()`, which fsyncs the WAL on the thread
  // pool instead of stalling the event loop at every commit (wal-sync.ts).
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Another connection's write lock is waited for from the event loop, not in SQLite's
  // sleeping busy handler (sqlite-lock.ts).
  database.pragma('busy_timeout = 0');
  database.pragma('foreign_keys = ON');
  // Statement and savepoint journals (a GroupWrite.runContained write is a savepoint in a
  // shared transaction) in memory: on disk, one past 64 KiB is a temporary file created,
  // written a page at a time (two writes a page) and deleted, about 50 system calls per
  // checkout apply on bench:checkout. Also keeps temporary tables and sorts in memory.
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
      // A marked one is one of a few fixed texts (prepared-query.ts keptPrepared), kept.
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

function createPostgres(options: { url: string; poolSize?: number }): DbHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  return {
    db,
    dialect: 'postgres',
    ping: () => pingDb(db),
    durable: () => Promise.resolve(),
    destroy: () => db.destroy(),
  };
}

/**
 * The pool as Kysely sees it, with one change: SQL that db/prepared-query.ts marked runs
 * as a named statement, so each connection parses and plans it once (pg keeps the names
 * it prepared per connection). Measured on GET /products/get's read, a join of three
 * tables: PostgreSQL spent about 160 µs of CPU per unnamed execution and 35 µs per
 * named one. Named statements need the same server connection from one query to the
 * next: behind PgBouncer, use session pooling.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  let serial = 0;
  const nameOf = (text: string, fresh = false): string => {
    let name = names.get(text);
    if (name === undefined || fresh) {
      serial += 1;
      name = `patron_${serial}`;
      names.set(text, name);
    }
    return name;
  };
  // One wrapper per pg client: Kysely keys its connections by the client object.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const named = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      try {
        return await client.query({ name: nameOf(text), text, values });
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        // The tables it reads changed shape since this connection prepared it (a
        // migration run by a newer process): prepare it again under a new name. The old
        // plan stays on the server until the connection closes.
        return client.query({ name: nameOf(text, true), text, values });
      }
    };
    // A cursor (Kysely's stream()) passes through as it came.
    const query = (text: unknown, values?: readonly unknown[]): unknown =>
      typeof text === 'string' && isKeptPrepared(text)
        ? named(text, values as unknown[])
        : client.query(text as string, values as unknown[]);
    return { query: query as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** PostgreSQL's answer to a prepared statement whose result columns changed (SQLSTATE 0A000). */
function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error && driverErrorCode(error) === '0A000' && error.message.includes('cached plan must not change result type')
  );
}

async function pingDb(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
