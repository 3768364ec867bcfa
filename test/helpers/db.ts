import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type DbHandle, type DbOptions } from '../../src/db/create-db.js';
import type { Dialect } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * The dialect matrix: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 * Each call gives a fresh, migrated database (a temp SQLite file, or a new PostgreSQL
 * schema) so test files never share state.
 */
export const TEST_DIALECTS: readonly Dialect[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestDb extends DbHandle {
  readonly options: DbOptions;
  /** Drops the schema or deletes the file, after destroying the connection. */
  cleanup(): Promise<void>;
}

export async function createTestDb(dialect: Dialect): Promise<TestDb> {
  const options = dialect === 'sqlite' ? await freshSqliteOptions() : await freshPostgresOptions();
  const handle = createDb(options);
  await migrateToLatest(handle);
  return {
    ...handle,
    options,
    async cleanup() {
      await handle.destroy();
      await removeDatabase(options);
    },
  };
}

/** A database location that is fresh but not yet migrated (for migration and process tests). */
export async function freshDbOptions(dialect: Dialect): Promise<DbOptions> {
  return dialect === 'sqlite' ? freshSqliteOptions() : freshPostgresOptions();
}

export async function removeDatabase(options: DbOptions): Promise<void> {
  if (options.kind === 'sqlite') {
    fs.rmSync(path.dirname(options.file), { recursive: true, force: true });
    return;
  }
  if (!options.schema) return;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${options.schema}" cascade`);
  } finally {
    await client.end();
  }
}

async function freshSqliteOptions(): Promise<DbOptions> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-test-'));
  return { kind: 'sqlite', file: path.join(dir, 'patron.sqlite') };
}

async function freshPostgresOptions(): Promise<DbOptions> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema "${schema}"`);
  } finally {
    await client.end();
  }
  return { kind: 'postgres', url, schema, poolSize: 5 };
}
