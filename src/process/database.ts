import type { Config } from '../config.js';
import { createDb, dbOptionsFromConfig, type DbHandle } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

export interface OpenedDatabase {
  readonly db: DbHandle;
  /** Names of the migrations this call applied (empty when the schema was current). */
  readonly applied: readonly string[];
}

/** Connects to the configured database and brings its schema up to date. */
export async function openMigratedDatabase(config: Config): Promise<OpenedDatabase> {
  const db = createDb(dbOptionsFromConfig(config));
  try {
    const { applied } = await migrateToLatest(db);
    return { db, applied };
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
}

/** Where the data lives, for log lines; never includes a password. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `SQLite in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}
