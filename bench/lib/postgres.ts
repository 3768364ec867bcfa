import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DbOptions } from '../../src/db/create-db.js';

/**
 * A throwaway PostgreSQL database for one bench run, on the local server
 * (127.0.0.1:5432, user postgres, or BENCH_PG_URL). Dropped at the end of the run.
 */

const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DB_NAME = /^patron_bench_[0-9a-f]{12}$/;

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function postgresAnswers(): Promise<boolean> {
  return withClient(() => Promise.resolve(true)).catch(() => false);
}

/** Creates an empty database and returns its URL. */
export async function createBenchDatabase(): Promise<string> {
  const name = `patron_bench_${crypto.randomBytes(6).toString('hex')}`;
  await withClient((client) => client.query(`create database "${name}"`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropBenchDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!BENCH_DB_NAME.test(name)) throw new Error(`refusing to drop ${name}`);
  await withClient((client) => client.query(`drop database if exists "${name}" with (force)`));
}

export type BenchDatabaseName = 'sqlite' | 'postgres';

export interface BenchDatabase {
  /** What the server process needs in its environment to use this database. */
  readonly env: Record<string, string>;
  readonly options: DbOptions;
  /** Deletes the SQLite directory or drops the PostgreSQL database. */
  cleanup(): Promise<void>;
}

/** A fresh database for one bench target: a temp SQLite directory, or a throwaway PostgreSQL database. */
export async function openBenchDatabase(name: BenchDatabaseName): Promise<BenchDatabase> {
  if (name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-bench-'));
    return {
      env: { PATRON_DATA_DIR: dir },
      options: { kind: 'sqlite', file: path.join(dir, 'patron.sqlite') },
      cleanup: () => fs.promises.rm(dir, { recursive: true, force: true }),
    };
  }
  const url = await createBenchDatabase();
  return { env: { DATABASE_URL: url }, options: { kind: 'postgres', url }, cleanup: () => dropBenchDatabase(url) };
}

/** The databases a bench runs on: SQLite always, PostgreSQL when it answers, as `--only` allows. */
export async function benchTargets(only: string | undefined): Promise<BenchDatabaseName[]> {
  if (only !== undefined && only !== 'sqlite' && only !== 'postgres') throw new Error('--only must be sqlite or postgres');
  const names: BenchDatabaseName[] = [];
  if (only !== 'postgres') names.push('sqlite');
  if (only !== 'sqlite') {
    if (await postgresAnswers()) names.push('postgres');
    else console.log('PostgreSQL does not answer on 127.0.0.1:5432: skipped.');
  }
  return names;
}
