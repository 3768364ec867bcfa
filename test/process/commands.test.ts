import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createDb, type DbOptions } from '../../src/db/create-db.js';
import { AdminTokenService } from '../../src/modules/system/admin-token.service.js';
import { ShopsService } from '../../src/modules/shops/shops.service.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { databaseEnv, runCli, type Env } from './cli-harness.js';

describe.each(TEST_DIALECTS)('patron commands on %s', (dialect) => {
  let db: DbOptions;
  let env: Env;
  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    env = databaseEnv(db);
  });
  afterAll(async () => {
    await removeDatabase(db);
  });

  /** Reads the database the commands wrote, through the services. */
  async function withDb<T>(use: (handle: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
    const handle = createDb(db);
    try {
      return await use(handle);
    } finally {
      await handle.destroy();
    }
  }

  it('migrate applies every migration to an empty database, then reports it up to date', async () => {
    const first = await runCli(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Applied \d+ migration\(s\) to .*:\n {2}0001-core\n/);
    const second = await runCli(['migrate'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Database is up to date/);
  }, 60_000);

  it('shop create prints the new shop_id and a secret that authenticates it', async () => {
    const result = await runCli(['shop', 'create', '--name', 'Corner shop', '--currency', 'EUR', '--timezone', 'Europe/Berlin'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created shop "Corner shop" (EUR, Europe/Berlin).');
    const shopId = /^shop_id {6}([0-9a-f]{30})$/m.exec(result.stdout)?.[1];
    const secret = /^shop_secret {2}(\S+)$/m.exec(result.stdout)?.[1];
    expect(shopId).toBeDefined();
    expect(secret!.length).toBeGreaterThanOrEqual(32);
    await withDb(async (handle) => {
      const shops = new ShopsService({ db: handle, clock: new ManualClock() });
      const credentials = await shops.findShopWithCredentials(shopId!);
      expect(credentials?.shop).toMatchObject({ name: 'Corner shop', currency: 'EUR', timezone: 'Europe/Berlin' });
      expect(shops.verifySecret(credentials!, secret!)).toBe(true);
    });
  }, 60_000);

  it('shop create refuses an invalid currency with exit code 2 and names the field', async () => {
    const result = await runCli(['shop', 'create', '--name', 'X', '--currency', 'euro'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`currency`');
    expect(result.stdout).toBe('');
  }, 60_000);

  it('demo creates the demo shop once and leaves it alone the second time', async () => {
    const first = await runCli(['demo'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Created the demo shop "Demo shop" with sample data: custom event codes, a product catalog, a slider, a product collection, a loyalty programme, promotions and a promo code, a paid subscription, recommendation blocks, a story set and NPS questions, a transactional mailing\./,
    );
    const shopId = /^shop_id {6}([0-9a-f]{30})$/m.exec(first.stdout)?.[1];
    const second = await runCli(['demo'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`The demo shop already exists: shop_id ${shopId} (nothing changed).\n`);
  }, 60_000);

  it('admin-token rotate prints a new token that replaces the stored one', async () => {
    const result = await runCli(['admin-token', 'rotate'], env);
    expect(result.code).toBe(0);
    const token = /^New admin token[^\n]*\n {2}(\S+)\n/.exec(result.stdout)?.[1];
    expect(token).toBeDefined();
    await withDb(async (handle) => {
      const service = new AdminTokenService({ db: handle, clock: new ManualClock(), envToken: undefined });
      expect(await service.ensure()).toEqual({ kind: 'stored' });
      expect(await service.verify(token!)).toBe(true);
    });
  }, 60_000);

  it('admin-token rotate refuses while PATRON_ADMIN_TOKEN is set', async () => {
    const result = await runCli(['admin-token', 'rotate'], { ...env, PATRON_ADMIN_TOKEN: 'from-the-environment-0123' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PATRON_ADMIN_TOKEN is set');
    expect(result.stdout).toBe('');
  }, 60_000);
});

describe('patron usage and configuration errors', () => {
  it('prints the help with --help and exits 0', async () => {
    const result = await runCli(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: patron <command> \[options\]/);
    for (const command of ['serve [--no-worker]', 'worker', 'migrate', 'shop create --name', 'demo', 'admin-token rotate']) {
      expect(result.stdout).toContain(command);
    }
  }, 60_000);

  it('exits 2 with the reason and the help on bad usage', async () => {
    const result = await runCli(['shop', 'create', '--colour', 'red'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^patron shop create: Unknown option '--colour'/);
    expect(result.stderr).toContain('Usage: patron');
  }, 60_000);

  it('exits 1 and names every bad variable at once before touching the database', async () => {
    const result = await runCli(['serve'], { PORT: 'http', LOG_LEVEL: 'chatty', PATRON_WORKER_CONCURRENCY: '-1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Invalid configuration:\n/);
    expect(result.stderr).toContain('  - PORT must be an integer');
    expect(result.stderr).toContain('  - LOG_LEVEL must be one of');
    expect(result.stderr).toContain('  - PATRON_WORKER_CONCURRENCY must be an integer');
    expect(result.stdout).toBe('');
  }, 60_000);
});
