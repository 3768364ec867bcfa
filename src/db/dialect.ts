import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ live here and nowhere else.
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

/** True when the driver error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
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

export function toFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

export function fromFlag(value: number | boolean | null | undefined): boolean {
  return value === 1 || value === true;
}
