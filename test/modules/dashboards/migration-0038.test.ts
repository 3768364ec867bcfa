import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSchema } from '../../../src/db/dialect.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { listMigrations } from '../../../src/db/migrations/index.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { fromAnswer, truthOf } from './dashboard-truth.js';

/**
 * A shop upgraded from a Patron without rollups: its history is stored, migration 0038
 * runs and queues the shop's backfill job, and the job's rollups equal the raw rows.
 */
describe.each(TEST_DIALECTS)('migration 0038 on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it("queues a backfill per shop whose job counts the shop's history", async () => {
    const services = t.app.services;
    const { shopId } = await createShopFixture(services);
    const { shopId: empty } = await createShopFixture(services);
    t.clock.set(Date.UTC(2026, 5, 1, 8, 0));
    const dids = [(await services.identity.createDevice(shopId)).did, (await services.identity.createDevice(shopId)).did];
    for (let i = 0; i < 40; i++) {
      const event = i % 5 === 0 ? 'purchase' : i % 2 === 0 ? 'view' : 'cart';
      await services.tracking.recordPush({
        shopId,
        did: dids[i % 2] as string,
        event,
        items: [{ id: `P-${i}`, amount: 1, price: 10 + i }],
        attribution: {},
        ...(event === 'purchase' && { purchase: { orderId: `O-${i % 10}` } }),
      });
      t.clock.advance(5 * 3_600_000);
    }
    await services.loyalty.joinMember(shopId, { phone: '79001112233' });
    await services.loyalty.creditManual(shopId, '79001112233', { amount: 700 });
    await services.loyalty.debitManual(shopId, '79001112233', { amount: 300, reason: 'test' });

    // Back to before 0038 (its tables dropped), then upgraded: the history is uncounted.
    const migrator = new Migrator({
      db: t.db.db,
      provider: { getMigrations: () => Promise.resolve(listMigrations(dialect)) },
      migrationTableSchema: await currentSchema(t.db.db, t.db.dialect),
    });
    expect((await migrator.migrateTo('0037-admin-gaps')).error).toBeUndefined();
    expect((await migrateToLatest(t.db)).applied[0]).toBe('0038-dashboards');
    const marks = await t.db.db.selectFrom('dashboard_backfill').selectAll().orderBy('shop_id').execute();
    expect(marks.map((m) => m.shop_id).sort()).toEqual([shopId, empty].sort());
    expect(Number(marks.find((m) => m.shop_id === shopId)?.events_until)).toBe(40);
    expect(await t.db.db.selectFrom('dashboard_days').select('day').execute()).toEqual([]);

    const runner = createJobRunner({ config: t.config, services, clock: t.clock, log: createLogger('silent') });
    expect(await runner.runDue()).toBeGreaterThanOrEqual(2);
    const states = await t.db.db.selectFrom('dashboard_backfill').select('phase').execute();
    expect(states.map((s) => s.phase)).toEqual(['done', 'done']);

    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shopId}/dashboard?from=2026-06-01&to=2026-06-30`,
      headers: t.adminHeaders,
    });
    expect(response.statusCode, response.body).toBe(200);
    const truth = await truthOf(t.db.db, shopId, 'Europe/Moscow');
    expect(truth.size).toBeGreaterThan(5);
    for (const day of response.json<{ days: Array<Parameters<typeof fromAnswer>[0] & { date: string }> }>().days) {
      const want = truth.get(day.date);
      expect(fromAnswer(day), day.date).toEqual(
        want ?? {
          events: {},
          active: 0,
          orders: 0,
          revenue: 0,
          members: 0,
          issued: 0,
          spent: 0,
          messages: {},
          attributedPurchases: 0,
          attributedRevenue: 0,
        },
      );
    }
  });
});
