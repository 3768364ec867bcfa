import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDailyAt } from '../../src/modules/recommendations/models.service.js';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { item, push } from '../modules/tracking/tracking-fixture.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe.each(TEST_DIALECTS)('admin recommendation model routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string) => t.app.inject({ method, url, headers: t.adminHeaders });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/recommendations`;
  const runDue = () =>
    createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') }).runDue();

  it('queues a rebuild with 202, and once the job ran the status names when the models were built', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const { did } = await t.app.services.identity.createDevice(shopId);
    for (const orderId of ['r-1', 'r-2']) {
      await t.app.services.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('A'), item('B')], purchase: { orderId } }));
    }
    expect((await inject('GET', `${base(shopId)}/status`)).json()).toMatchObject({ built_at: null, building: false });

    const queued = await inject('POST', `${base(shopId)}/rebuild`);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toEqual({ status: 'queued' });
    await runDue();

    const status = await inject('GET', `${base(shopId)}/status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toEqual({
      built_at: new Date(NOW).toISOString(),
      building: false,
      building_since: null,
      rows_read: null,
      last_error: null,
      last_error_at: null,
      orders_read: 2,
      sessions_read: 0,
      items_with_neighbours: 2,
      duration_ms: 0,
    });
    expect(await t.app.services.recommendationModels.neighbours(shopId, 'also_bought', 'A')).toEqual([{ id: 'B', score: 1 }]);
    // The shop's daily build is queued too, for the next 03:00 UTC.
    const daily = await t.db.db
      .selectFrom('jobs')
      .select(['run_at', 'status'])
      .where('name', '=', 'recommendations.rebuild')
      .where('idempotency_key', '=', `${shopId}:${nextDailyAt(NOW)}`)
      .executeTakeFirst();
    expect(daily).toEqual({ run_at: expect.anything(), status: 'queued' });
    expect(Number(daily?.run_at)).toBe(Date.UTC(2026, 0, 16, 3, 0, 0));
  });

  it('answers 404 for a shop that does not exist', async () => {
    expectAdminError(await inject('POST', `${base(UNKNOWN_SHOP)}/rebuild`), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/status`), 404, 'NOT_FOUND');
  });
});
