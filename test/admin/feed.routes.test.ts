import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { buildJsonFeed, buildYml, sampleFeed } from '../helpers/feed-builder.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

describe('admin product feed routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_FEED_MAX_BYTES: '20000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const put = (shopId: string, payload: string, contentType: string, headers: Record<string, string> = t.adminHeaders) =>
    t.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/feed`, headers: { ...headers, 'content-type': contentType }, payload });

  it('imports a YML feed sent as application/xml and answers the counts once it is served', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const feed = sampleFeed();
    const response = await put(shopId, buildYml({ ...feed, offers: [...(feed.offers ?? []), { name: 'no id' }] }), 'application/xml');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      products: 4,
      categories: 4,
      locations: 3,
      skipped: [{ id: '', reason: 'offer has no id' }],
    });
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);
  });

  it('imports text/xml with a charset, and the same content as JSON', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const xml = await put(shopId, buildYml(sampleFeed()), 'text/xml; charset=utf-8');
    expect(xml.statusCode).toBe(200);
    const json = await put(shopId, JSON.stringify(buildJsonFeed(sampleFeed())), 'application/json');
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(xml.json());
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(2);
  });

  it('answers 422 for a malformed feed and keeps the previous catalog', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect((await put(shopId, buildYml(sampleFeed()), 'application/xml')).statusCode).toBe(200);
    for (const [body, type] of [
      ['<yml_catalog><shop><offers><offer id="1">', 'application/xml'],
      ['not a feed', 'application/xml'],
      ['{"offers": [', 'application/json'],
      ['<yml_catalog/>', 'application/json'],
    ]) {
      const message = expectAdminError(await put(shopId, body as string, type as string), 422, 'VALIDATION_FAILED');
      expect(message).toMatch(/^The (feed|JSON feed)/);
    }
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);
    const status = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed`, headers: t.adminHeaders });
    expect(status.json()).toMatchObject({ generation: 1, last_import: { generation: 5, status: 'failed' } });
  });

  it('answers 404 for an unknown shop, 401 without the admin token, 415 for another content type', async () => {
    expectAdminError(await put(UNKNOWN_SHOP, buildYml(sampleFeed()), 'application/xml'), 404, 'NOT_FOUND');
    expectAdminError(await put('not-a-shop', buildYml(sampleFeed()), 'application/xml'), 404, 'NOT_FOUND');
    const { shopId } = await createShopFixture(t.app.services);
    expectAdminError(await put(shopId, buildYml(sampleFeed()), 'application/xml', {}), 401, 'UNAUTHORIZED');
    expectAdminError(await put(shopId, 'offers', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(0);
  });

  it('answers a PUT without a body and Content-Type with 415 in the admin envelope, and logs no import', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `/admin/v1/shops/${shopId}/feed`;
    const bare = await t.app.inject({ method: 'PUT', url, headers: t.adminHeaders });
    expect(expectAdminError(bare, 415, 'UNSUPPORTED_MEDIA_TYPE')).toBe(
      'The feed must be sent as the body, with Content-Type application/xml, text/xml or application/json.',
    );
    const noImport = await t.app.inject({ method: 'GET', url, headers: t.adminHeaders });
    expect(noImport.json()).toMatchObject({ generation: 0, last_import: null });
    // With a Content-Type, an empty body is read as the document it declares: not a feed.
    const typed = await t.app.inject({ method: 'PUT', url, headers: { ...t.adminHeaders, 'content-type': 'application/xml' } });
    expect(expectAdminError(typed, 422, 'VALIDATION_FAILED')).toMatch(/^The feed is not well-formed XML/);
    const status = await t.app.inject({ method: 'GET', url, headers: t.adminHeaders });
    expect(status.json()).toMatchObject({
      generation: 0,
      last_import: { status: 'failed', error: expect.stringMatching(/^The feed is not well-formed XML/) },
    });
  });

  it('answers 413 for a feed past PATRON_FEED_MAX_BYTES and keeps the catalog', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect((await put(shopId, buildYml(sampleFeed()), 'application/xml')).statusCode).toBe(200);
    const big = buildYml({ offers: Array.from({ length: 200 }, (_, i) => ({ id: `o${i}`, name: 'x'.repeat(100) })) });
    expect(big.length).toBeGreaterThan(20_000);
    expectAdminError(await put(shopId, big, 'application/xml'), 413, 'PAYLOAD_TOO_LARGE');
    expectAdminError(
      await put(shopId, JSON.stringify(buildJsonFeed({ offers: [{ id: 'a', description: 'd'.repeat(30_000) }] })), 'application/json'),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);
  });

  it('shows the feed state and the import log, newest first', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const empty = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed`, headers: t.adminHeaders });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      feed_url: null,
      refresh_minutes: 60,
      generation: 0,
      landed_at: null,
      next_fetch_at: null,
      last_import: null,
    });

    await put(shopId, buildYml(sampleFeed()), 'application/xml');
    await put(shopId, 'broken', 'application/xml');
    const now = new Date(t.clock.now()).toISOString();
    const status = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed`, headers: t.adminHeaders });
    expect(status.json()).toEqual({
      feed_url: null,
      refresh_minutes: 60,
      generation: 1,
      landed_at: now,
      next_fetch_at: null,
      last_import: {
        generation: 2,
        source: 'admin',
        status: 'failed',
        products: 0,
        categories: 0,
        locations: 0,
        skipped_count: 0,
        skipped: [],
        error: expect.stringMatching(/^The feed is not well-formed XML/),
        started_at: now,
        finished_at: now,
      },
    });

    const log = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed/imports?limit=5`, headers: t.adminHeaders });
    expect(log.statusCode).toBe(200);
    expect(
      log
        .json<{ imports: { generation: number; status: string; products: number }[] }>()
        .imports.map((i) => [i.generation, i.status, i.products]),
    ).toEqual([
      [2, 'failed', 0],
      [1, 'done', 4],
    ]);
    expect(log.json()).toMatchObject({ next_before: null });
    expectAdminError(
      await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${UNKNOWN_SHOP}/feed/imports?before=x`, headers: t.adminHeaders }),
      422,
      'VALIDATION_FAILED',
    );
    expectAdminError(
      await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed/imports?limit=1000`, headers: t.adminHeaders }),
      422,
      'VALIDATION_FAILED',
    );
    expectAdminError(
      await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${UNKNOWN_SHOP}/feed/imports`, headers: t.adminHeaders }),
      404,
      'NOT_FOUND',
    );
  });

  it('pages the import log by `before`, each import once, newest first', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    for (let i = 0; i < 7; i++) await put(shopId, i % 2 === 0 ? buildYml(sampleFeed()) : 'broken', 'application/xml');
    const seen: number[] = [];
    let before: number | null | undefined;
    let pages = 0;
    do {
      const query = `limit=3${before === undefined ? '' : `&before=${before}`}`;
      const page = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed/imports?${query}`, headers: t.adminHeaders });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json<{ imports: { generation: number }[]; next_before: number | null }>();
      seen.push(...body.imports.map((i) => i.generation));
      before = body.next_before;
      pages++;
    } while (before !== null && pages < 10);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(pages).toBe(3);
    // Another shop's imports never show up under this one.
    const other = await createShopFixture(t.app.services);
    const otherLog = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${other.shopId}/feed/imports?before=8`,
      headers: t.adminHeaders,
    });
    expect(otherLog.json()).toEqual({ imports: [], next_before: null });
  });

  it('sets the feed URL and interval with PATCH, schedules a fetch at once, and clears it with null', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shopId}/feed`, headers: t.adminHeaders, payload });
    const set = await patch({ feed_url: 'https://feeds.example/shop.xml', refresh_minutes: 30 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      feed_url: 'https://feeds.example/shop.xml',
      refresh_minutes: 30,
      next_fetch_at: new Date(t.clock.now()).toISOString(),
    });
    const jobs = await t.db.db.selectFrom('jobs').selectAll().where('name', '=', 'catalog.fetch').execute();
    expect(jobs.filter((j) => JSON.parse(j.payload).shopId === shopId).map((j) => [j.status, Number(j.run_at)])).toEqual([
      ['queued', t.clock.now()],
    ]);

    expect((await patch({ refresh_minutes: 120 })).json()).toMatchObject({
      feed_url: 'https://feeds.example/shop.xml',
      refresh_minutes: 120,
    });
    expect((await patch({ feed_url: null })).json()).toMatchObject({ feed_url: null, next_fetch_at: null });

    for (const bad of [{ feed_url: 'ftp://feeds.example/x' }, { feed_url: 'not a link' }, { refresh_minutes: 1 }, { other: 1 }]) {
      expectAdminError(await patch(bad), 422, 'VALIDATION_FAILED');
    }
    expectAdminError(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/shops/${UNKNOWN_SHOP}/feed`,
        headers: t.adminHeaders,
        payload: { refresh_minutes: 60 },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('documents the JSON feed shape in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>
      >;
    }>();
    const put = doc.paths['/admin/v1/shops/{shop_id}/feed']?.put;
    expect(Object.keys(put?.requestBody?.content ?? {}).sort()).toEqual(['application/json', 'application/xml', 'text/xml']);
    expect(Object.keys(put?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual([
      'categories',
      'locations',
      'offers',
    ]);
  });
});
