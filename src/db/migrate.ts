import { Migrator, type MigrationResultSet } from 'kysely';
import type { DbHandle } from './create-db.js';
import { currentSchema } from './dialect.js';
import { listMigrations } from './migrations/index.js';

export interface MigrateOutcome {
  applied: string[];
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(handle: DbHandle): Promise<MigrateOutcome> {
  const migrations = listMigrations(handle.dialect);
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its own tables in every schema unless told which one; a database
    // holding several schemas (tests, a shared server) would otherwise skip creating them.
    migrationTableSchema: await currentSchema(handle.db, handle.dialect),
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  const failed = result.results?.find((r) => r.status === 'Error');
  if (result.error !== undefined || failed) {
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`, {
      cause: result.error,
    });
  }
  return { applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
