import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type DbHandle, type DbOptions } from '../../src/db/create-db.js';
import type { Dialect } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { PREPARED } from './prepared.js';

/**
 * The dialect matrix: SQLite always, PostgreSQL when TEST_DATABASE_URL is set; with
 * TEST_DIALECT=postgres as well, PostgreSQL alone (CI's second pass: its first pass has
 * already run every SQLite case).
 * Each call gives a fresh, migrated database (a temp SQLite file, or a new PostgreSQL
 * database on the server of TEST_DATABASE_URL) so test files never share state. Whole
 * databases rather than schemas: catalogue introspection (Kysely's migrator) reads every
 * schema of a database and trips over another file's schema being dropped.
 * The database is a copy of the run's migrated template (test/global-setup.ts): a file
 * copy or `CREATE DATABASE … TEMPLATE` costs a fraction of running every migration again.
 * Without a template (watch mode, or outside vitest) each database is migrated here.
 *
 * A PostgreSQL test database commits without waiting for the disk (`synchronous_commit`
 * off, set on the database, so a child process connecting to it does the same): each
 * commit waited some 3 ms for its WAL flush (two test files made 2,256 flushes, 94 without),
 * and nothing in the tests outlives a crash of the PostgreSQL server. What a commit makes
 * visible, and when, is unchanged. A test of durability itself asks for `durableCommits`.
 */
export const TEST_DIALECTS: readonly Dialect[] = !process.env.TEST_DATABASE_URL
  ? ['sqlite']
  : process.env.TEST_DIALECT === 'postgres'
    ? ['postgres']
    : ['sqlite', 'postgres'];

export interface TestDb extends DbHandle {
  readonly options: DbOptions;
  /** Drops the database or deletes the file, after destroying the connection. */
  cleanup(): Promise<void>;
}

export interface TestDbOptions {
  /** PostgreSQL: commits wait for the disk, as the server's own default has them (see above). */
  readonly durableCommits?: boolean;
}

export async function createTestDb(dialect: Dialect, testOptions: TestDbOptions = {}): Promise<TestDb> {
  const template = process.env[dialect === 'sqlite' ? PREPARED.sqliteTemplate : PREPARED.postgresTemplate];
  const options = dialect === 'sqlite' ? await freshSqliteOptions() : await freshPostgresOptions(template, testOptions);
  if (template && options.kind === 'sqlite') await fs.promises.copyFile(template, options.file);
  const handle = createDb(options);
  try {
    if (!template) await migrateToLatest(handle);
    // Connected, as the migrator leaves it (and as in a process, which migrates at start):
    // a Kysely instance that never connected would connect again after destroy(), and the
    // tests of a lost database destroy the handle to take the database away.
    else if (!(await handle.ping())) throw new Error(`the copy of the template does not answer (${dialect})`);
  } catch (error) {
    await handle.destroy();
    await removeDatabase(options);
    throw error;
  }
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
  const name = new URL(options.url).pathname.slice(1);
  if (!TEST_DB_NAME.test(name)) return;
  await withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`));
}

async function freshSqliteOptions(): Promise<DbOptions> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-test-'));
  return { kind: 'sqlite', file: path.join(dir, 'patron.sqlite') };
}

const TEST_DB_NAME = /^patron_t_[0-9a-f]{12}$/;

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function freshPostgresOptions(template?: string, testOptions: TestDbOptions = {}): Promise<DbOptions> {
  const name = `patron_t_${crypto.randomBytes(6).toString('hex')}`;
  const from = template ? ` template "${template}"` : '';
  await withAdminClient(async (client) => {
    await client.query(`create database "${name}"${from}`);
    // A database's settings are not copied from its template: set on each one.
    if (!testOptions.durableCommits) await client.query(`alter database "${name}" set synchronous_commit = off`);
  });
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return { kind: 'postgres', url: url.toString(), poolSize: 5 };
}
