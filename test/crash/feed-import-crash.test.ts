import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, type DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { buildYml } from '../helpers/feed-builder.js';
import { CliProcess, databaseEnv, type Env } from '../process/cli-harness.js';

/**
 * Issue 12, part 9: a worker killed (SIGKILL) in the middle of a scheduled feed import
 * leaves its catalog.fetch job and the import recorded as running. A second worker,
 * started after the kill, must take the job over once its lease runs out, wait out the
 * dead import's lease, fetch the feed again and land it: within seconds, not at the next
 * scheduled fetch. The lease is two seconds here (PATRON_JOB_LEASE_SECONDS).
 */

const ADMIN_TOKEN = 'crash-test-admin-token-0123456789';
const OFFERS = 3_000;
const LEASE_SECONDS = 2;
/** From the kill to the landing: the job lease, the import lease, a poll, the new worker's start and the import. */
const TAKEOVER_LIMIT_MS = 20_000;

const feedYml = buildYml({
  categories: [{ id: '1', name: 'All' }],
  offers: Array.from({ length: OFFERS }, (_, i) => ({
    id: `offer-${i}`,
    price: '10',
    name: `Offer ${i}`,
    url: `https://shop.example/${i}`,
    categoryIds: ['1'],
  })),
});

/**
 * Serves the feed: the first request gets its first half and then nothing more (the
 * import it feeds stays running until its worker is killed); later ones get all of it.
 */
class FeedServer {
  requests = 0;
  private readonly server = http.createServer((_request, response) => {
    this.requests += 1;
    response.writeHead(200, { 'content-type': 'text/xml' });
    if (this.requests === 1) response.write(feedYml.slice(0, feedYml.indexOf('offer-1500')));
    else response.end(feedYml);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/feed.xml`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function admin(baseUrl: string, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Polls `probe` until it answers something other than undefined (bounded). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(TEST_DIALECTS)('a scheduled feed import whose worker is killed, on %s', (dialect) => {
  let db: DbOptions;
  let handle: DbHandle;
  let env: Env;
  let feed: FeedServer;
  let feedUrl: string;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    feed = new FeedServer();
    feedUrl = await feed.start();
    env = {
      ...databaseEnv(db),
      PORT: '0',
      HOST: '127.0.0.1',
      PATRON_ADMIN_TOKEN: ADMIN_TOKEN,
      PATRON_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      PATRON_FETCH_ALLOW_PRIVATE: 'true',
    };
  });
  afterAll(async () => {
    for (const child of processes) child.kill();
    await handle?.destroy();
    await feed.stop();
    await removeDatabase(db);
  });

  it('is taken over and landed by another worker within seconds of the SIGKILL', async () => {
    const first = CliProcess.start(['serve'], env);
    processes.push(first);
    const baseUrl = await first.waitUntilServing();
    const shopId = String((await admin(baseUrl, 'POST', '/shops', { name: 'Feed crash shop' })).shop_id);
    handle = createDb(db);
    const imports = () => handle.db.selectFrom('feed_imports').selectAll().where('shop_id', '=', shopId).orderBy('generation').execute();

    await admin(baseUrl, 'PATCH', `/shops/${shopId}/feed`, { feed_url: feedUrl, refresh_minutes: 60 });
    // The first worker has begun the import and staged part of the feed before it is killed.
    await waitFor(
      'the first import staging offers',
      async () => {
        const staged = await handle.db
          .selectFrom('catalog_products')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('shop_id', '=', shopId)
          .executeTakeFirst();
        return Number(staged?.n ?? 0) > 0 ? true : undefined;
      },
      30_000,
    );
    expect((await imports()).map((i) => i.status)).toEqual(['running']);
    first.signal('SIGKILL');
    await first.exit(10_000);
    const killedAt = Date.now();

    const second = CliProcess.start(['worker'], env);
    processes.push(second);
    const landed = await waitFor(
      'the takeover landing',
      async () => {
        const catalog = await handle.db.selectFrom('catalogs').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
        return Number(catalog?.generation ?? 0) > 0 ? Number(catalog?.generation) : undefined;
      },
      TAKEOVER_LIMIT_MS + 10_000,
    );
    const takeoverMs = Date.now() - killedAt;

    expect(landed).toBe(2);
    expect(feed.requests).toBe(2);
    const log = await imports();
    expect(log.map((i) => [Number(i.generation), i.source, i.status, i.products])).toEqual([
      [1, 'url', 'failed', 0],
      [2, 'url', 'done', OFFERS],
    ]);
    expect(log[0]?.error).toBe('The import stopped before it finished (abandoned).');
    const served = await handle.db
      .selectFrom('catalog_products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('shop_id', '=', shopId)
      .where('generation', '=', 2)
      .executeTakeFirst();
    expect(Number(served?.n)).toBe(OFFERS);
    expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
    console.log(
      `[feed import crash, ${dialect}] landed by the second worker ${takeoverMs} ms after the SIGKILL (lease ${LEASE_SECONDS} s)`,
    );

    second.signal('SIGTERM');
    expect(await second.exit()).toBe(0);
  }, 90_000);
});
