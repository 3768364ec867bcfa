import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { driverErrorCode } from '../dialect.js';
import type { StorageTimings } from './storage-timings.js';

/**
 * SQLite's write lock, waited for without blocking the event loop.
 *
 * One SQLite file may have more than one connection writing to it: `patron serve` runs its
 * jobs in a thread of their own with a connection of its own (process/job-thread.ts), and
 * `patron worker` processes may run beside it. SQLite lets one of them write at a time.
 * Its own wait (`busy_timeout`) sleeps in the calling thread, 1, 2, 5, 10 ms and longer
 * between tries: on the main thread that sleep stops every request of the process, and
 * the waiter often sleeps through the moment the lock came free.
 *
 * - The threads of one process take turns through a ticket lock in shared memory
 *   (ThreadWriteLock) before they write: a transaction from its `begin` to its commit or
 *   rollback, a write outside a transaction for its one statement. A waiting thread
 *   waits with Atomics.waitAsync, so its event loop goes on, and the lock passes in the
 *   order it was asked for: the HTTP thread cannot be starved by a busy job thread.
 * - Against other processes the connection runs with `busy_timeout = 0`, and a statement
 *   outside a transaction that finds the lock taken (SQLITE_BUSY) is tried again from the
 *   event loop: on the next turns, then every millisecond, until `timeoutMs` has passed.
 * - A transaction begins IMMEDIATE, taking SQLite's write lock at its start, so that none
 *   of its statements finds it taken later: a deferred one that read first and wrote
 *   second would fail for good when another connection had written in between
 *   (SQLITE_BUSY_SNAPSHOT), its reads spent.
 *
 * On one connection alone nothing waits: the locks are always free.
 *
 * Reads outside a transaction share one read transaction per event-loop turn (a read
 * snapshot): the first opens it (a deferred `begin`), a write or a transaction of this
 * connection ends it first, and it ends at the latest in the turn's check phase
 * (setImmediate). An autocommit read begins and ends a read transaction of its own, two
 * lock calls on the shared-memory file and the log header's checks, which cost a
 * primary-key read about three times what the read itself does inside a transaction.
 * The reads of a turn see the database as it was
 * at its first: another connection's commit of the same moment shows at the next turn, as
 * if the reads had run a moment earlier; this connection's own writes always show.
 */

export const SQLITE_LOCK_TIMEOUT_MS = 5_000;

/** A select (after prepared-query.ts's marker comment, if any): never writes. */
const READ_ONLY_SQL = /^(?:\/\*[^*]*\*\/\s*)?select\b/i;

/** Tries on the next event-loop turns before waiting a millisecond between tries. */
const IMMEDIATE_TRIES = 8;

export function isBusy(error: unknown): boolean {
  return driverErrorCode(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/** Atomics.waitAsync (Node 16 and later; TypeScript types it from lib es2024 on). */
type WaitAsync = (
  words: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync.bind(Atomics);

/**
 * A first-come, first-served lock over two counters in a SharedArrayBuffer (the next
 * ticket, the ticket served), shared by the threads of a process through their
 * workerData. acquire() never blocks the thread.
 */
export class ThreadWriteLock {
  private readonly words: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.words = new Int32Array(buffer);
  }

  async acquire(): Promise<void> {
    const ticket = Atomics.add(this.words, 0, 1);
    for (;;) {
      const serving = Atomics.load(this.words, 1);
      if (serving === ticket) return;
      const wait = waitAsync(this.words, 1, serving);
      if (wait.async) await wait.value;
    }
  }

  release(): void {
    const serving = Atomics.add(this.words, 1, 1) + 1;
    // Wake the waiters only when a ticket beyond the one now served was taken: notify
    // costs a few microseconds, a noticeable share of a busy thread's CPU when called at
    // every release. A thread that takes its ticket after this check finds
    // its turn come when it looks at the counter, before it would wait.
    if (Atomics.load(this.words, 0) !== serving) Atomics.notify(this.words, 1);
  }
}

export interface LockAwareSqliteConfig extends SqliteDialectConfig {
  readonly database: KyselySqliteDatabase;
  /** The connection itself, for whether a transaction is open. */
  readonly raw: SqliteDatabase.Database;
  /** The lock this process's threads share (a lock of its own for a connection alone). */
  readonly threadLock: ThreadWriteLock;
  readonly timeoutMs?: number;
  /** How long each write waited for the lock goes here (storage-timings.ts). */
  readonly timings?: StorageTimings;
}

/**
 * Runs a statement of a prepared query (prepared-query.ts) at once on the connection, where
 * Kysely's executor would run it without waiting for anything: a statement of the
 * transaction that holds the connection, or a read while nothing holds it. Anything else
 * (a write outside a transaction, which takes the thread lock; any statement while
 * another transaction or a stream holds the connection) answers undefined and takes the
 * executor's way. That way passes through the executor's connection provider, the
 * driver's mutex and the result's plugins, each with promises and objects of its own,
 * which nearly double the cost of a prepared primary-key read and made a large share of
 * what a checkout apply allocates. The statement and its answer are the same either way.
 */
export interface SqliteDirect {
  run<R>(sql: string, parameters: readonly unknown[], ownTransaction: boolean): QueryResult<R> | undefined;
}

/** Each lock-aware handle's direct way, by its Kysely adapter (which its transactions share). */
const directs = new WeakMap<DialectAdapter, SqliteDirect>();

/** The direct way of the handle whose executor has `adapter`, if it is a lock-aware SQLite handle. */
export function sqliteDirectOf(adapter: DialectAdapter): SqliteDirect | undefined {
  return directs.get(adapter);
}

/** A Kysely SQLite dialect whose transactions begin IMMEDIATE and whose lock waits yield to the event loop. */
export class LockAwareSqliteDialect extends SqliteDialect {
  private driver: LockAwareSqliteDriver | undefined;

  constructor(private readonly lockConfig: LockAwareSqliteConfig) {
    super(lockConfig);
  }

  override createDriver(): Driver {
    this.driver = new LockAwareSqliteDriver(this.lockConfig);
    return this.driver;
  }

  override createAdapter(): DialectAdapter {
    const adapter = new TransactionalDdlSqliteAdapter();
    const direct: SqliteDirect = { run: (sql, parameters, ownTransaction) => this.driver?.runDirect(sql, parameters, ownTransaction) };
    directs.set(adapter, direct);
    return adapter;
  }
}

/**
 * SQLite's DDL is transactional; Kysely's adapter says otherwise, so its migrator would run
 * without a transaction and without a lock (its SQLite lock is a no-op, one connection being
 * assumed). Saying so makes the migrator run in one transaction, which begins IMMEDIATE:
 * two processes starting at once on one file migrate it once (db/migrate.ts).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class LockAwareSqliteDriver extends SqliteDriver {
  private readonly connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
  private readonly threadLock: ThreadWriteLock;
  private readonly timeoutMs: number;
  /** Whether this connection holds the thread lock (Kysely runs one query or transaction at a time on it). */
  private holding = false;
  /** Whether Kysely has the connection out (a query or a transaction of its own runs on it). */
  private lent = false;
  /** Whether the turn's read transaction is open (the class comment). */
  private reading = false;
  private closeScheduled = false;
  private readonly closeTurn = (): void => {
    this.closeScheduled = false;
    try {
      this.closeRead();
    } catch {
      // The connection was closed under it: nothing is left to end.
    }
  };
  private readonly beginRead: SqliteDatabase.Statement;
  private readonly commitRead: SqliteDatabase.Statement;
  private readonly rollbackRead: SqliteDatabase.Statement;

  constructor(private readonly config: LockAwareSqliteConfig) {
    super(config);
    this.threadLock = config.threadLock;
    this.timeoutMs = config.timeoutMs ?? SQLITE_LOCK_TIMEOUT_MS;
    this.beginRead = config.raw.prepare('begin');
    this.commitRead = config.raw.prepare('commit');
    this.rollbackRead = config.raw.prepare('rollback');
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.lent = true;
    let wrapped = this.connections.get(connection);
    if (!wrapped) {
      wrapped = {
        executeQuery: <R>(query: CompiledQuery) => this.execute<R>(connection, query),
        // A stream holds the connection across turns: it reads outside the turn's transaction.
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => {
          this.closeRead();
          return connection.streamQuery<R>(query, chunkSize);
        },
      };
      this.connections.set(connection, wrapped);
    }
    return wrapped;
  }

  override async releaseConnection(): Promise<void> {
    this.lent = false;
    await super.releaseConnection();
  }

  /** SqliteDirect.run (above). */
  runDirect<R>(sql: string, parameters: readonly unknown[], ownTransaction: boolean): QueryResult<R> | undefined {
    const raw = this.config.raw;
    if (!raw.open) return undefined;
    if (ownTransaction) {
      // The caller's transaction holds the connection and the thread lock: nothing else can run on it.
      if (!this.holding || !this.inExplicitTransaction()) return undefined;
      return this.statement<R>(sql, parameters);
    }
    if (this.lent || this.inExplicitTransaction() || !this.isReadOnly(sql)) return undefined;
    this.openRead();
    try {
      return this.statement<R>(sql, parameters);
    } catch (error) {
      if (!isBusy(error)) throw error;
      // The executor's way ends the turn's reads and tries again from the event loop.
      this.closeRead();
      return undefined;
    }
  }

  /** A statement run as Kysely's SQLite connection runs it, with the same result. */
  private statement<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    const statement = this.config.database.prepare(sql) as unknown as SqliteDatabase.Statement;
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const started = this.config.timings?.start();
    await this.lock();
    try {
      this.closeRead();
      // Another process's write lock is waited for here, by run's tries.
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      this.unlock();
      throw error;
    }
    this.config.timings?.waited('write_lock_wait', started);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    } finally {
      // A failed commit leaves the transaction open for Kysely's rollback, which unlocks.
      if (!this.config.raw.inTransaction) this.unlock();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.unlock();
    }
  }

  private async lock(): Promise<void> {
    await this.threadLock.acquire();
    this.holding = true;
  }

  private unlock(): void {
    if (!this.holding) return;
    this.holding = false;
    this.threadLock.release();
  }

  private async execute<R>(connection: DatabaseConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.holding || this.inExplicitTransaction()) return this.run<R>(connection, query);
    if (this.isReadOnly(query.sql)) {
      this.openRead();
      return this.run<R>(connection, query);
    }
    // A write outside a transaction ends the turn's reads and holds the thread lock for its one statement.
    this.closeRead();
    const started = this.config.timings?.start();
    await this.lock();
    this.config.timings?.waited('write_lock_wait', started);
    try {
      return await this.run<R>(connection, query);
    } finally {
      this.unlock();
    }
  }

  /** A transaction other than the turn's reads is open on the connection. */
  private inExplicitTransaction(): boolean {
    return this.config.raw.inTransaction && !this.reading;
  }

  private openRead(): void {
    if (this.reading || this.config.raw.inTransaction) return;
    this.beginRead.run();
    this.reading = true;
    if (!this.closeScheduled) {
      this.closeScheduled = true;
      setImmediate(this.closeTurn);
    }
  }

  /**
   * Ends the turn's read transaction, if open (it wrote nothing: the commit takes no
   * lock). Should the commit fail, a rollback ends it; a transaction left open after both
   * would pass for a caller's own, so that error is thrown.
   */
  private closeRead(): void {
    if (!this.reading) return;
    const raw = this.config.raw;
    try {
      this.commitRead.run();
    } catch (error) {
      try {
        if (raw.inTransaction) this.rollbackRead.run();
      } catch {
        // Reported below if the transaction is still open.
      }
      if (raw.open && raw.inTransaction) throw error;
    } finally {
      this.reading = false;
    }
  }

  private isReadOnly(text: string): boolean {
    // By the text, not by preparing it (a long statement is not cached, connection.ts): a
    // WITH or anything else may write, and takes the lock.
    return READ_ONLY_SQL.test(text);
  }

  private async run<R>(connection: DatabaseConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await connection.executeQuery<R>(query);
    } catch (error) {
      if (!isBusy(error) || this.inExplicitTransaction()) throw error;
      // A read that found the file locked (another process recovering it) tries again alone.
      this.closeRead();
    }
    const deadline = performance.now() + this.timeoutMs;
    for (let attempt = 1; ; attempt += 1) {
      await new Promise<void>((resolve) => (attempt <= IMMEDIATE_TRIES ? setImmediate(resolve) : setTimeout(resolve, 1)));
      try {
        return await connection.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.inExplicitTransaction() || performance.now() >= deadline) throw error;
      }
    }
  }

  override async destroy(): Promise<void> {
    try {
      this.closeRead();
    } catch {
      // Closing the connection ends whatever is open on it.
    }
    await super.destroy();
  }
}
