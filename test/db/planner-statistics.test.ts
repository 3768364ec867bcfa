import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshPlannerStatistics } from '../../src/db/dialect.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';

/** db/dialect.ts refreshPlannerStatistics: ANALYZE on PostgreSQL, bounded in how long it waits for its lock. */
describe.each(TEST_DIALECTS)('refreshPlannerStatistics on %s', (dialect) => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });

  const analyzeCount = async () => {
    const { rows } = await sql<{
      n: number | string;
    }>`select analyze_count as n from pg_stat_user_tables where relname = 'catalog_products'`.execute(db.db);
    return Number(rows[0]?.n ?? 0);
  };

  it('refreshes the statistics of the table (a no-op on SQLite)', async () => {
    const before = dialect === 'postgres' ? await analyzeCount() : 0;
    expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products')).toBe(true);
    if (dialect === 'postgres') expect(await analyzeCount()).toBe(before + 1);
  });

  it.runIf(dialect === 'postgres')('gives up, without failing, when the table stays locked by a vacuum or another ANALYZE', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // The lock a VACUUM or an ANALYZE of the table holds, on another connection of the pool.
    const holder = db.db.transaction().execute(async (trx) => {
      await sql`lock table catalog_products in share update exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await lockTaken;
    try {
      const started = Date.now();
      expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products', { lockTimeoutMs: 200 })).toBe(false);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      release();
      await holder;
    }
    // Once the lock is free it refreshes; the timeout was its transaction's only (a pool
    // connection shows none).
    expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products', { lockTimeoutMs: 200 })).toBe(true);
    const { rows } = await sql<{ lock_timeout: string }>`show lock_timeout`.execute(db.db);
    expect(rows[0]?.lock_timeout).toBe('0');
  });

  it.runIf(dialect === 'postgres')('refreshes only the columns named, when it is given some', async () => {
    const analyzed = async () => {
      const { rows } = await sql<{
        attname: string;
      }>`select attname from pg_stats where tablename = 'catalog_products' order by attname`.execute(db.db);
      return rows.map((r) => r.attname);
    };
    // The table was empty when the test above analyzed it, so pg_stats holds no column of it yet.
    await db.db
      .insertInto('shops')
      .values({
        shop_id: 'c'.repeat(30),
        secret_hash: 'x',
        name: 'S',
        currency: 'RUB',
        timezone: 'UTC',
        active: 1,
        restricted: 0,
        paid_till: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await sql`insert into catalog_products (shop_id, generation, id, available, name, category_ids, pictures, params, location_ids, ignored, widgetable)
      select ${'c'.repeat(30)}, 1, 'p' || n, 1, 'n', '[]', '[]', '[]', '[]', 0, 0 from generate_series(1, 50) n`.execute(db.db);
    expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products', { columns: ['shop_id', 'id'] })).toBe(true);
    expect(await analyzed()).toEqual(['id', 'shop_id']);
  });

  it.runIf(dialect === 'postgres')('throws a failure other than a lock timeout', async () => {
    await expect(refreshPlannerStatistics(db.db, dialect, 'no_such_table')).rejects.toMatchObject({ code: '42P01' });
  });
});
