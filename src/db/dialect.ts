import {
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type QueryExecutorProvider,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ live here and nowhere else; the one
 * large difference, the product search index, lives beside this file in search-index.ts.
 * Conventions shared by both dialects (so repositories need no branches):
 * - times are integer milliseconds since the epoch (`bigint`; pg's int8 parser is set to number);
 * - booleans are integer 0/1 columns;
 * - JSON documents are text columns, parsed in repositories.
 */
export type Dialect = 'sqlite' | 'postgres';

/** Adds an auto-incrementing integer primary key named `name`. */
export function addSerialPrimaryKey<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
  name = 'id',
): CreateTableBuilder<T, never> {
  return dialect === 'postgres'
    ? table.addColumn(name, 'bigserial', (c) => c.primaryKey())
    : table.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Adds an auto-incrementing integer column that is not the primary key on its own. */
export function serialColumnType(dialect: Dialect): 'bigserial' | 'integer' {
  return dialect === 'postgres' ? 'bigserial' : 'integer';
}

export function notNull(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return c.notNull();
}

/** The SQLSTATE (PostgreSQL) or result code (SQLite) of a driver error, if it has one. */
export function driverErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the driver error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverErrorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * True when the driver error means another transaction got in the way and the same work
 * may simply run again: a deadlock or serialisation failure (PostgreSQL), a busy or stale
 * snapshot (SQLite, another process writing), or a unique key taken meanwhile.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = driverErrorCode(error);
  if (code === undefined) return false;
  return code === '40P01' || code === '40001' || code.startsWith('SQLITE_BUSY') || isUniqueViolation(error);
}

/**
 * How long a statistics refresh waits for its table lock before it gives up. ANALYZE
 * takes a lock that another ANALYZE or a VACUUM of the table holds too; autovacuum yields
 * it within a second, but a vacuum against transaction-id wraparound does not, and the
 * import that asked must not stall behind one for minutes.
 */
export const STATISTICS_LOCK_TIMEOUT_MS = 5_000;

/**
 * Brings the planner's statistics of a table up to date, for a writer that grows it fast
 * (an audience import adds a million profiles in minutes, a feed import a whole catalog,
 * long before autovacuum's next look): PostgreSQL plans the lookup of many identifiers
 * from the table's statistics, and with those of an empty table it walks every profile of
 * the shop instead of probing the unique indexes. SQLite's planner needs none here (and
 * its ANALYZE reads the whole table): a no-op there. `table` is a name from the code,
 * never from input.
 *
 * `columns` limits the refresh to the columns the caller's lookups are planned on (with
 * the table's size, which every ANALYZE updates): a sample of 100,000 catalog products
 * took 370 ms for every column and 65 ms for the three keys; autovacuum still refreshes
 * the rest in its own time. Names from the code, never from input.
 *
 * Statistics only make plans better, so a refresh that cannot get its lock within
 * `lockTimeoutMs` is skipped (false) rather than waited for; any other failure throws.
 */
export async function refreshPlannerStatistics<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  table: string,
  options: { readonly columns?: readonly string[]; readonly lockTimeoutMs?: number } = {},
): Promise<boolean> {
  if (dialect !== 'postgres') return true;
  const lockTimeoutMs = options.lockTimeoutMs ?? STATISTICS_LOCK_TIMEOUT_MS;
  const columns = options.columns?.length ? sql` (${sql.join(options.columns.map((c) => sql.ref(c)))})` : sql``;
  try {
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${`${Math.max(1, Math.round(lockTimeoutMs))}ms`}, true)`.execute(trx);
      await sql`analyze ${sql.table(table)}${columns}`.execute(trx);
    });
    return true;
  } catch (error) {
    if (driverErrorCode(error) === '55P03') return false;
    throw error;
  }
}

/** A column of raw bytes: SQLite `blob`, PostgreSQL `bytea`; both drivers read and write Node Buffers. */
export function bytesColumnType(dialect: Dialect): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/**
 * Whether a write of one statement commits best alone, in autocommit: on PostgreSQL a
 * commit is durable and concurrent ones merge their log flushes, so a transaction around
 * one statement only adds two round trips; SQLite's commits are cheaper shared
 * (db/group-write.ts).
 */
export function commitsOneStatementAlone(dialect: Dialect): boolean {
  return dialect === 'postgres';
}

/** Whether `SELECT … FOR UPDATE SKIP LOCKED` exists (SQLite serialises writers instead). */
export function supportsSkipLocked(dialect: Dialect): boolean {
  return dialect === 'postgres';
}

/**
 * Locks the selected rows and passes over rows other transactions hold, so concurrent
 * claimers each take different rows (`FOR UPDATE SKIP LOCKED`). SQLite has one writer
 * at a time, so there the statement that uses this subquery is already atomic as it is.
 */
export function lockSkippingLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  return supportsSkipLocked(dialect) ? query.forUpdate().skipLocked() : query;
}

/** The schema unqualified names resolve to (PostgreSQL's search_path); SQLite has none. */
export async function currentSchema<DB>(db: Kysely<DB>, dialect: Dialect): Promise<string | undefined> {
  if (dialect !== 'postgres') return undefined;
  // current_schema() is null when no schema on the search_path exists.
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

/**
 * Tells the processes that LISTEN on `channel` (db/postgres/channel-listener.ts) when the
 * transaction `db` runs in commits, or at once outside one: PostgreSQL's NOTIFY. SQLite
 * has no such thing, and needs none: one process serves it (docs/scaling.md).
 */
export async function notifyListeners(db: QueryExecutorProvider, dialect: Dialect, channel: string, payload: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

export function toFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

export function fromFlag(value: number | boolean | null | undefined): boolean {
  return value === 1 || value === true;
}

/** Landed migrations (0007-search) build the search index through this module. */
export { createProductSearchIndex, dropProductSearchIndex } from './search-index.js';

/**
 * Runs `work` in a transaction whose commit need not reach the disk before it returns:
 * for rows that are worthless after a crash anyway (a feed import's staging, which a
 * crash abandons). A crash may lose the last such commits, never corrupt the database,
 * and the next durable commit makes everything before it durable. PostgreSQL:
 * `synchronous_commit` off for this transaction only. SQLite commits never wait for the
 * disk already (db/sqlite/connection.ts: synchronous NORMAL, with `DbHandle.durable()` to flush).
 */
export async function inDisposableTransaction<DB, T>(
  db: Kysely<DB>,
  dialect: Dialect,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`set local synchronous_commit to off`.execute(trx);
    return work(trx);
  });
}
