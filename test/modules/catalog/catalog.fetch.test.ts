import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { loadConfig } from '../../../src/config.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { buildJsonFeed, buildYml, type FeedSpec } from '../../helpers/feed-builder.js';
import { catalogStack, productRows, type CatalogStack } from './catalog-fixture.js';

const HOUR = 60 * 60_000;

/** A feed server on 127.0.0.1: answers what `respond` says, counting requests per path. */
class FeedServer {
  readonly hits = new Map<string, number>();
  respond: (path: string) => { status: number; type: string; body: string } = () => ({ status: 404, type: 'text/plain', body: '' });
  private readonly server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const answer = this.respond(path);
    response.writeHead(answer.status, { 'content-type': answer.type });
    response.end(answer.body);
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const feed = (ids: string[]): FeedSpec => ({
  categories: [{ id: '1', name: 'All' }],
  offers: ids.map((id) => ({ id, price: '5', name: id, url: `https://shop.example/${id}`, categoryIds: ['1'] })),
});

describe.each(TEST_DIALECTS)('scheduled feed fetch on %s', (dialect) => {
  let db: TestDb;
  let server: FeedServer;
  let t: CatalogStack;
  let runner: JobRunner;
  let shopId: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    server = new FeedServer();
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
    await db.cleanup();
  });
  beforeEach(async () => {
    t = catalogStack(db, { PATRON_FETCH_ALLOW_PRIVATE: 'true' });
    runner = createJobRunner({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      services: t.services,
      clock: t.clock,
      log: createLogger('silent'),
    });
    shopId = (await createShopFixture(t.services)).shopId;
    server.hits.clear();
  });

  const fetchJobs = async () =>
    (await db.db.selectFrom('jobs').selectAll().where('name', '=', 'catalog.fetch').orderBy('id').execute())
      .filter((j) => (JSON.parse(j.payload) as { shopId: string }).shopId === shopId)
      .map((j) => ({ status: j.status, runAt: Number(j.run_at) }));

  it('fetches at once when the URL is set, then every refresh interval, as one chain of jobs', async () => {
    let ids = ['a', 'b'];
    server.respond = () => ({ status: 200, type: 'application/xml', body: buildYml(feed(ids)) });
    const start = t.clock.now();
    const status = await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/chain.xml') });
    expect(status.nextFetchAt).toBe(start);

    await runner.runDue();
    expect(server.hits.get('/chain.xml')).toBe(1);
    expect((await productRows(db, shopId)).map((p) => [p.generation, p.id])).toEqual([
      [1, 'a'],
      [1, 'b'],
    ]);
    expect((await t.services.catalog.listImports(shopId))[0]).toMatchObject({ source: 'url', status: 'done', products: 2 });
    expect((await t.services.catalog.getFeed(shopId)).nextFetchAt).toBe(start + HOUR);
    expect(await fetchJobs()).toEqual([
      { status: 'done', runAt: start },
      { status: 'queued', runAt: start + HOUR },
    ]);

    // Nothing runs before the hour is up.
    t.clock.advance(HOUR - 1);
    await runner.runDue();
    expect(server.hits.get('/chain.xml')).toBe(1);

    ids = ['b', 'c'];
    t.clock.advance(1);
    await runner.runDue();
    expect(server.hits.get('/chain.xml')).toBe(2);
    expect((await productRows(db, shopId)).map((p) => [p.generation, p.id])).toEqual([
      [2, 'b'],
      [2, 'c'],
    ]);
    expect((await fetchJobs()).filter((j) => j.status === 'queued')).toEqual([{ status: 'queued', runAt: start + 2 * HOUR }]);
  });

  it('gets a fresh link when a new URL is set in the millisecond a link ran', async () => {
    server.respond = () => ({ status: 200, type: 'application/xml', body: buildYml(feed(['a'])) });
    const start = t.clock.now();
    await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/first.xml') });
    await runner.runDue();
    const status = await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/second.xml') });
    expect(status.nextFetchAt).toBe(start + 1);
    t.clock.advance(1);
    await runner.runDue();
    expect(server.hits.get('/second.xml')).toBe(1);
  });

  it('does nothing for a link delivered again, or for a link of a URL since removed', async () => {
    server.respond = () => ({ status: 200, type: 'text/xml', body: buildYml(feed(['a'])) });
    const start = t.clock.now();
    await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/once.xml'), refreshMinutes: 30 });
    await runner.runDue();
    await t.services.catalog.runScheduledFetch({ shopId, at: start });
    expect(server.hits.get('/once.xml')).toBe(1);

    await t.services.catalog.updateFeed(shopId, { feedUrl: null });
    t.clock.advance(30 * 60_000);
    await runner.runDue();
    expect(server.hits.get('/once.xml')).toBe(1);
    expect((await fetchJobs()).filter((j) => j.status === 'queued')).toEqual([]);
  });

  it('records a feed URL that fails or serves a malformed feed, keeps the catalog, and goes on', async () => {
    server.respond = (path) =>
      path === '/good.json'
        ? { status: 200, type: 'application/json', body: JSON.stringify(buildJsonFeed(feed(['j']))) }
        : path === '/broken.xml'
          ? { status: 200, type: 'application/xml', body: '<yml_catalog><shop><offers><offer id="1">' }
          : { status: 500, type: 'text/plain', body: 'oops' };
    await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/good.json') });
    await runner.runDue();
    expect((await productRows(db, shopId)).map((p) => p.id)).toEqual(['j']);

    t.clock.advance(1000);
    await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/broken.xml') });
    await runner.runDue();
    t.clock.advance(1000);
    await t.services.catalog.updateFeed(shopId, { feedUrl: server.url('/down.xml') });
    await runner.runDue();

    expect(await t.services.catalog.currentGeneration(shopId)).toBe(1);
    expect((await productRows(db, shopId)).map((p) => p.id)).toEqual(['j']);
    const log = await t.services.catalog.listImports(shopId);
    expect(log.map((i) => [i.generation, i.status, i.error])).toEqual([
      [3, 'failed', 'The feed URL could not be fetched: The server answered HTTP 500.'],
      [2, 'failed', expect.stringMatching(/^The feed is not well-formed XML/)],
      [1, 'done', null],
    ]);
    // Links of the replaced URLs stay queued but find the schedule moved on: only the
    // chain of the last URL fetches.
    const next = (await t.services.catalog.getFeed(shopId)).nextFetchAt;
    expect((await fetchJobs()).filter((j) => j.status === 'queued').map((j) => j.runAt)).toContain(next);
    server.hits.clear();
    t.clock.advance(2 * HOUR);
    await runner.runDue();
    // (Other tests' shops have chains on this server too; only this shop's paths count.)
    expect(['/good.json', '/broken.xml', '/down.xml'].map((path) => server.hits.get(path) ?? 0)).toEqual([0, 0, 1]);
  });

  it('never fetches from a private address unless the configuration allows it', async () => {
    const strict = catalogStack(db);
    server.respond = () => ({ status: 200, type: 'application/xml', body: buildYml(feed(['x'])) });
    await strict.services.catalog.updateFeed(shopId, { feedUrl: server.url('/private.xml') });
    await strict.services.catalog.runScheduledFetch({ shopId, at: strict.clock.now() });
    expect(server.hits.get('/private.xml')).toBeUndefined();
    const [failed] = await strict.services.catalog.listImports(shopId);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^The feed URL could not be fetched: /);
    expect(await strict.services.catalog.currentGeneration(shopId)).toBe(0);
  });
});
