import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createDb } from '../../src/db/create-db.js';
import { ShopsService } from '../../src/modules/shops/shops.service.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { keyTableCounts, shopNames } from './backup-compare.js';
import { runCli } from './cli-harness.js';

// SQLite only: CI's PostgreSQL-only pass (TEST_DIALECT=postgres) skips it.
describe.runIf(TEST_DIALECTS.includes('sqlite'))('patron backup (SQLite)', () => {
  let dir: string;
  let source: string;
  let shopId: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-backup-'));
    source = path.join(dir, 'data');
    const demo = await runCli(['demo'], { PATRON_DATA_DIR: source });
    expect(demo.code, demo.stderr).toBe(0);
    shopId = /^shop_id {6}([0-9a-f]{30})$/m.exec(demo.stdout)![1]!;
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies the database while shops are being created, into a file a fresh patron opens with the same data', async () => {
    const live = createDb({ kind: 'sqlite', file: path.join(source, 'patron.sqlite') });
    const shops = new ShopsService({ db: live, clock: new ManualClock() });
    const copyDir = path.join(dir, 'copy');
    fs.mkdirSync(copyDir);
    const copyFile = path.join(copyDir, 'patron.sqlite');
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        await shops.createShop({ name: `During ${written}` });
        written += 1;
        // The writes are synchronous underneath: let the child's output and exit be heard.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let result: Awaited<ReturnType<typeof runCli>>;
    try {
      result = await runCli(['backup', copyFile], { PATRON_DATA_DIR: source });
    } finally {
      stop = true;
      await writer;
    }
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Backed up .* to .*patron\.sqlite: [\d,]+ pages of \d+ bytes, [\d.]+ (KiB|MiB)\.\n$/);
    expect(result.stderr).toMatch(/Backing up: ([\d,]+) of \1 pages \(100%\)/);
    expect(written).toBeGreaterThan(0);
    expect(fs.readdirSync(copyDir)).toEqual(['patron.sqlite']);

    // A fresh patron on the copy: its schema is current, nothing to migrate.
    const migrate = await runCli(['migrate'], { PATRON_DATA_DIR: copyDir });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/^Database is up to date/);

    const copy = createDb({ kind: 'sqlite', file: copyFile });
    try {
      const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(copy.db);
      expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
      expect(await keyTableCounts(copy, shopId)).toEqual(await keyTableCounts(live, shopId));
      // One moment's database: the shops created before it, each whole, none after.
      const copied = await shopNames(copy);
      const all = await shopNames(live);
      expect(copied.get(shopId)).toBe('Demo shop');
      for (const [id, name] of copied) expect(all.get(id)).toBe(name);
      const during = [...copied.values()].filter((name) => name.startsWith('During ')).map((name) => Number(name.slice(7)));
      expect(during.sort((a, b) => a - b)).toEqual([...Array(during.length).keys()]);
      expect(copied.size).toBeLessThanOrEqual(all.size);
    } finally {
      await copy.destroy();
      await live.destroy();
    }
  }, 60_000);

  it('refuses an existing destination unless --force, and refuses PostgreSQL naming pg_dump', async () => {
    const target = path.join(dir, 'taken.sqlite');
    fs.writeFileSync(target, 'not a backup');
    const refused = await runCli(['backup', target], { PATRON_DATA_DIR: source });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('exists; give --force to replace it');
    expect(fs.readFileSync(target, 'utf8')).toBe('not a backup');

    const forced = await runCli(['backup', target, '--force'], { PATRON_DATA_DIR: source });
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(target).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(fs.readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);

    const postgres = await runCli(['backup', path.join(dir, 'pg.sqlite')], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('pg_dump --format=custom');
  }, 60_000);
});
