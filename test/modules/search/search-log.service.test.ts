import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { JobMap } from '../../../src/jobs/job-map.js';
import { NO_RESULT_WINDOW_MS } from '../../../src/modules/search/domain/search-log.js';
import type { SearchType } from '../../../src/modules/search/domain/query.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../../helpers/factories.js';
import { push } from '../tracking/tracking-fixture.js';
import { insertProducts, serveGeneration, searchStack, type SearchStack } from './search-fixture.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(TEST_DIALECTS)('search log on %s', (dialect) => {
  let db: TestDb;
  let stack: SearchStack;
  let shop: ShopFixture;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    stack = searchStack(db);
    shop = await createShopFixture(stack.services);
    await insertProducts(db, shop.shopId, 1, [{ id: 'k1', name: 'Kettle' }]);
    await serveGeneration(db, shop.shopId, 1);
  });

  const run = (query: string, type: SearchType = 'full_search', extra: { did?: string; sid?: string } = {}) =>
    stack.services.search.search({ shop: shop.shop, type, query, limit: 20, ...extra });
  const logRows = () =>
    db.db
      .selectFrom('search_queries')
      .select(['time', 'query', 'type', 'results', 'did', 'sid', 'event_id'])
      .where('shop_id', '=', shop.shopId)
      .orderBy('time')
      .orderBy('query')
      .execute();
  const noResults = () => stack.services.search.noResultQueries(shop.shopId);

  it('logs every search, normalised, with its type, result count and attribution', async () => {
    const t0 = stack.clock.now();
    await run('  KETTLE  ', 'full_search', { did: 'AAAAAAAAA1', sid: 'SSSSSSSSS1' });
    stack.clock.advance(1);
    await run('Ket', 'instant_search');
    stack.clock.advance(1);
    await run('Blue\t\n  TEAPOT');
    expect(await logRows()).toEqual([
      { time: t0, query: 'kettle', type: 'full_search', results: 1, did: 'AAAAAAAAA1', sid: 'SSSSSSSSS1', event_id: null },
      { time: t0 + 1, query: 'ket', type: 'instant_search', results: 1, did: null, sid: null, event_id: null },
      { time: t0 + 2, query: 'blue teapot', type: 'full_search', results: 0, did: null, sid: null, event_id: null },
    ]);
  });

  it('counts the full searches that found nothing by query, most frequent first, then by query', async () => {
    for (const query of ['teapot', 'Teapot ', 'TEAPOT', 'zebra', 'samovar', 'samovar', 'kettle']) await run(query);
    // Instant searches that found nothing are half-typed words: not counted.
    await run('teapo', 'instant_search');
    expect(await noResults()).toEqual([
      { query: 'teapot', quantity: 3 },
      { query: 'samovar', quantity: 2 },
      { query: 'zebra', quantity: 1 },
    ]);
  });

  it('keeps a no-result query for two weeks: at exactly 14 days it no longer counts', async () => {
    const start = stack.clock.now();
    await run('teapot');
    stack.clock.set(start + NO_RESULT_WINDOW_MS - 1);
    expect(await noResults()).toEqual([{ query: 'teapot', quantity: 1 }]);
    stack.clock.set(start + NO_RESULT_WINDOW_MS);
    expect(await noResults()).toEqual([]);
  });

  it('prunes log rows that have left the window when it writes', async () => {
    const start = stack.clock.now();
    await run('teapot');
    await run('kettle');
    stack.clock.set(start + 15 * DAY);
    await run('samovar');
    expect((await logRows()).map((row) => row.query)).toEqual(['samovar']);
    expect(await noResults()).toEqual([{ query: 'samovar', quantity: 1 }]);
  });

  it('keeps each shop’s queries to itself', async () => {
    const other = await createShopFixture(stack.services);
    await stack.services.search.search({ shop: other.shop, type: 'full_search', query: 'teapot', limit: 20 });
    expect(await noResults()).toEqual([]);
    expect(await stack.services.search.noResultQueries(other.shopId)).toEqual([{ query: 'teapot', quantity: 1 }]);
  });

  describe('the search event of POST /push', () => {
    it('logs a pushed search once, even when its delivery runs twice, and never as a no-result query', async () => {
      const { did } = await stack.services.identity.createDevice(shop.shopId);
      await db.db.deleteFrom('jobs').execute();
      const event = await stack.services.tracking.recordPush(push(shop.shopId, did, 'search', { searchQuery: '  Green   TEAPOT ' }));
      const jobs = await db.db.selectFrom('jobs').select(['name', 'payload']).where('name', '=', 'tracking.deliver').execute();
      const deliveries = jobs.map((job) => JSON.parse(job.payload) as JobMap['tracking.deliver']);
      expect(deliveries).toEqual([{ shopId: shop.shopId, eventId: event.id, subscriber: 'search-log' }]);

      // At least once: the job runs, and then the same delivery comes again.
      const config = loadConfig({ LOG_LEVEL: 'silent' });
      const runner = createJobRunner({ config, services: stack.services, clock: stack.clock, log: createLogger('silent') });
      expect(await runner.runDue()).toBe(1);
      await stack.services.tracking.deliver(deliveries[0]!);

      expect(await logRows()).toEqual([
        { time: event.time, query: 'green teapot', type: 'push', results: null, did, sid: null, event_id: event.id },
      ]);
      expect(await noResults()).toEqual([]);
    });

    it('is not subscribed to other events', async () => {
      const { did } = await stack.services.identity.createDevice(shop.shopId);
      await db.db.deleteFrom('jobs').execute();
      await stack.services.tracking.recordPush(push(shop.shopId, did, 'category', { categoryId: '5' }));
      expect(await db.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    });
  });
});
