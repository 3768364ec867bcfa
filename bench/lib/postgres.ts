import crypto from 'node:crypto';
import pg from 'pg';

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
