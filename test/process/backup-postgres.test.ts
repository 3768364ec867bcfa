import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { keyTableCounts, shopNames } from './backup-compare.js';
import { runCli } from './cli-harness.js';

/**
 * The PostgreSQL backup and restore docs/deploy.md ("Backups") tells a shop to run,
 * exactly: pg_dump --format=custom, pg_restore --no-owner into a fresh database, then
 * patron migrate on it. Runs only with TEST_DATABASE_URL.
 */
describe.runIf(TEST_DIALECTS.includes('postgres'))('PostgreSQL backup and restore (docs/deploy.md)', () => {
  let source: DbOptions;
  let restored: DbOptions;
  let dir: string;
  beforeAll(async () => {
    source = await freshDbOptions('postgres');
    restored = await freshDbOptions('postgres');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-pg-backup-'));
  });
  afterAll(async () => {
    await removeDatabase(source);
    await removeDatabase(restored);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('pg_dump, pg_restore into a fresh database, and patron on it holds the same data', async () => {
    if (source.kind !== 'postgres' || restored.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const demo = await runCli(['demo'], { DATABASE_URL: source.url });
    expect(demo.code, demo.stderr).toBe(0);
    const shopId = /^shop_id {6}([0-9a-f]{30})$/m.exec(demo.stdout)![1]!;
    const created = await runCli(['shop', 'create', '--name', 'Second shop'], { DATABASE_URL: source.url });
    expect(created.code, created.stderr).toBe(0);

    const dump = path.join(dir, 'patron.dump');
    execFileSync('pg_dump', ['--format=custom', '--file', dump, source.url], { stdio: 'pipe' });
    execFileSync('pg_restore', ['--no-owner', '--dbname', restored.url, dump], { stdio: 'pipe' });

    const migrate = await runCli(['migrate'], { DATABASE_URL: restored.url });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/^Database is up to date/);

    const [from, to] = [createDb(source), createDb(restored)];
    try {
      expect(await shopNames(to)).toEqual(await shopNames(from));
      expect((await shopNames(to)).size).toBe(2);
      expect(await keyTableCounts(to, shopId)).toEqual(await keyTableCounts(from, shopId));
      // The app writes on the restored database: its sequences came along.
      const again = await runCli(['shop', 'create', '--name', 'After restore'], { DATABASE_URL: restored.url });
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await from.destroy();
      await to.destroy();
    }
  }, 60_000);
});
