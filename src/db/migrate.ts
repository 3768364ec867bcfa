import { Migrator, sql, type MigrationResultSet } from 'kysely';
import type { DbHandle } from './create-db.js';
import { currentSchema } from './dialect.js';
import { listMigrations } from './migrations/index.js';
import { isBusy } from './sqlite/write-lock.js';

/**
 * SQLite: how long a start waits in all for another process's migrations (each try waits
 * up to SQLITE_LOCK_TIMEOUT_MS for the write lock). PostgreSQL's migration lock waits an hour.
 */
const SQLITE_MIGRATION_WAIT_MS = 60_000;

export interface MigrateOutcome {
  applied: string[];
}

/** Kysely's record of the applied migrations (one row per migration, by name). */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * The database holds migrations this code does not know: a newer Patron migrated it.
 * Running on would read and write tables in a shape this code was not written for, so
 * `serve`, `worker` and `migrate` refuse (docs/scaling.md, "Starting several nodes").
 */
export class DatabaseNewerThanCodeError extends Error {
  override readonly name = 'DatabaseNewerThanCodeError';
  constructor(
    readonly databaseLatest: string,
    readonly codeLatest: string,
  ) {
    super(
      `The database is at migration ${databaseLatest}, newer than this Patron's ${codeLatest}: ` +
        'run the newer Patron (every node on one database must run the same version, or a newer one), ' +
        'or restore a backup taken before the newer version migrated it.',
    );
  }
}

/**
 * Applies every pending migration; throws with the failing migration's name on error.
 * Several processes may call it at once on one database: Kysely's migrator takes a lock
 * (an advisory lock in PostgreSQL; in SQLite the write lock, the migrations running in one
 * IMMEDIATE transaction: sqlite/write-lock.ts) so that each migration runs once.
 */
export async function migrateToLatest(handle: DbHandle): Promise<MigrateOutcome> {
  const migrations = listMigrations(handle.dialect);
  const schema = await currentSchema(handle.db, handle.dialect);
  await refuseNewerDatabase(handle, schema, Object.keys(migrations));
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its own tables in every schema unless told which one; a database
    // holding several schemas (tests, a shared server) would otherwise skip creating them.
    migrationTableSchema: schema,
  });
  const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
  let result: MigrationResultSet = await migrator.migrateToLatest();
  // Another process holds SQLite's write lock through its migrations: try again (each try
  // has waited its lock timeout already).
  while (handle.dialect === 'sqlite' && isBusy(result.error) && Date.now() < deadline) result = await migrator.migrateToLatest();
  const failed = result.results?.find((r) => r.status === 'Error');
  if (result.error !== undefined || failed) {
    // A newer Patron may have migrated the database while this one waited for the lock.
    await refuseNewerDatabase(handle, schema, Object.keys(migrations));
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`, {
      cause: result.error,
    });
  }
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** Throws DatabaseNewerThanCodeError when the database records a migration the code lacks. */
async function refuseNewerDatabase(handle: DbHandle, schema: string | undefined, known: readonly string[]): Promise<void> {
  const applied = await appliedMigrations(handle, schema);
  const knownSet = new Set(known);
  const unknown = applied.filter((name) => !knownSet.has(name)).sort();
  if (unknown.length === 0) return;
  const codeLatest = [...known].sort().at(-1) ?? '(none)';
  throw new DatabaseNewerThanCodeError(unknown.at(-1)!, codeLatest);
}

/** The names in Kysely's migration table; none when the table does not exist yet. */
async function appliedMigrations(handle: DbHandle, schema: string | undefined): Promise<string[]> {
  const exists =
    handle.dialect === 'postgres'
      ? await sql<{ found: number }>`select 1 as found from information_schema.tables
          where table_schema = ${schema ?? 'public'} and table_name = ${MIGRATION_TABLE}`.execute(handle.db)
      : await sql<{ found: number }>`select 1 as found from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(
          handle.db,
        );
  if (exists.rows.length === 0) return [];
  const table = sql.table(schema ? `${schema}.${MIGRATION_TABLE}` : MIGRATION_TABLE);
  const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(handle.db);
  return rows.map((row) => row.name);
}
