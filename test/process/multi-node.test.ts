import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, type DbOptions } from '../../src/db/create-db.js';
import { listMigrations } from '../../src/db/migrations/index.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { CliProcess, databaseEnv, runCli, type Env } from './cli-harness.js';

/**
 * Several processes on one database (docs/scaling.md, "Starting several nodes"): two
 * started at once on an empty database migrate it once and both serve, with one demo
 * shop and one admin token; a process with another secret key, or code older than the
 * database's schema, refuses to start and says why.
 */

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

describe.each(TEST_DIALECTS)('several Patron processes on one %s database', (dialect) => {
  let options: DbOptions;
  let env: Env;
  let db: DbHandle;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    options = await freshDbOptions(dialect);
    env = { ...databaseEnv(options), PORT: '0', HOST: '127.0.0.1', PATRON_SECRET_KEY: KEY_A };
  });
  afterAll(async () => {
    for (const child of processes) child.kill();
    await db?.destroy();
    await removeDatabase(options);
  });

  it('two started at once on an empty database migrate it once, both serve, and make one demo shop and one admin token', async () => {
    const nodes = [CliProcess.start(['serve', '--no-worker'], env), CliProcess.start(['serve', '--no-worker'], env)];
    processes.push(...nodes);
    const urls = await Promise.all(nodes.map((node) => node.waitUntilServing(60_000)));
    for (const url of urls) expect((await fetch(`${url}/ready`)).status).toBe(200);

    db = createDb(options);
    const names = (await sql<{ name: string }>`select name from kysely_migration`.execute(db.db)).rows.map((r) => r.name);
    expect(names.sort()).toEqual(Object.keys(listMigrations(dialect)).sort());
    expect(await db.db.selectFrom('shops').select('name').execute()).toEqual([{ name: 'Demo shop' }]);
    const printed = nodes.map((node) => node.stdout);
    expect(printed.filter((out) => out.includes('Admin token (shown only this once')).length).toBe(1);
    expect(printed.filter((out) => out.includes('Demo shop "Demo shop"')).length).toBe(1);

    for (const node of nodes) node.signal('SIGTERM');
    for (const node of nodes) expect(await node.exit()).toBe(0);
  }, 120_000);

  it('refuses a process whose PATRON_SECRET_KEY differs from the others, without printing either key', async () => {
    const result = await runWorkerToExit({ ...env, PATRON_SECRET_KEY: KEY_B });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('The secret key of this process (PATRON_SECRET_KEY here) is not the one the other processes');
    expect(result.stdout).not.toContain('Job worker started');
    expect(result.stdout + result.stderr).not.toMatch(/aaaaaaaa|bbbbbbbb/);

    // A deliberate change of the key: `patron secret-key adopt` records the new one.
    const check = async () =>
      (await db.db.selectFrom('settings').select('value').where('key', '=', 'secret_key_check').executeTakeFirstOrThrow()).value;
    const hmac = (key: string) => crypto.createHmac('sha256', Buffer.from(key, 'hex')).update('patron:secret-key-check:v1').digest('hex');
    expect(await check()).toBe(hmac(KEY_A));
    const adopt = await runCli(['secret-key', 'adopt'], { ...env, PATRON_SECRET_KEY: KEY_B });
    expect(adopt.code).toBe(0);
    expect(await check()).toBe(hmac(KEY_B));
  }, 60_000);

  it('refuses to migrate or run on a database a newer Patron has migrated, naming both migrations', async () => {
    await sql`insert into kysely_migration (name, timestamp) values (${'9999-future'}, ${new Date().toISOString()})`.execute(db.db);
    const latest = Object.keys(listMigrations(dialect)).sort().at(-1);
    const expected = `The database is at migration 9999-future, newer than this Patron's ${latest}`;

    const migrate = await runCli(['migrate'], env);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain(expected);

    const worker = await runWorkerToExit(env);
    expect(worker.code).toBe(1);
    expect(worker.stdout).toContain(expected);
  }, 60_000);

  async function runWorkerToExit(workerEnv: Env): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const worker = CliProcess.start(['worker'], workerEnv);
    processes.push(worker);
    const code = await worker.exit(30_000);
    return { code, stdout: worker.stdout, stderr: worker.stderr };
  }
});
