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
    const { rows } = await sql<{ n: number | string }>`select analyze_count as n from pg_stat_user_tables where relname = 'catalog_products'`.execute(db.db);
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
      expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products', 200)).toBe(false);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      release();
      await holder;
    }
    // Once the lock is free it refreshes; the timeout was its transaction's only (a pool
    // connection shows none).
    expect(await refreshPlannerStatistics(db.db, dialect, 'catalog_products', 200)).toBe(true);
    const { rows } = await sql<{ lock_timeout: string }>`show lock_timeout`.execute(db.db);
    expect(rows[0]?.lock_timeout).toBe('0');
  });

  it.runIf(dialect === 'postgres')('throws a failure other than a lock timeout', async () => {
    await expect(refreshPlannerStatistics(db.db, dialect, 'no_such_table')).rejects.toMatchObject({ code: '42P01' });
  });
});
