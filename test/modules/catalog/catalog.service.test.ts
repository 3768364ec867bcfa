import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { INTERNAL_IMPORT_FAILURE, UPLOAD_BROKE_OFF } from '../../../src/modules/catalog/catalog.import.js';
import type { CatalogLandedListener, CatalogLanding } from '../../../src/modules/catalog/catalog.types.js';
import { refusalOf } from '../../helpers/app-error.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { buildJsonFeed, buildYml, importTestFeed, sampleFeed, type FeedOfferSpec } from '../../helpers/feed-builder.js';
import { catalogStack, categoryRows, locationRows, productRows, type CatalogStack } from './catalog-fixture.js';

const offer = (id: string, extra: Partial<FeedOfferSpec> = {}): FeedOfferSpec => ({
  id,
  price: '10',
  name: `Product ${id}`,
  url: `https://shop.example/p/${id}`,
  categoryIds: ['1'],
  ...extra,
});

/** A body that delivers its first part, then waits until `release` is called. */
function pausedBody(first: string, rest: string): { body: AsyncIterable<Buffer>; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const began = new Promise<void>((resolve) => (started = resolve));
  async function* body() {
    yield Buffer.from(first);
    started();
    await gate;
    yield Buffer.from(rest);
  }
  return { body: body(), release, started: began };
}

describe.each(TEST_DIALECTS)('catalog import on %s', (dialect) => {
  let db: TestDb;
  let t: CatalogStack;
  let shopId: string;

  beforeAll(async () => {
    // Durable commits: a test below reads that a relaxed commit leaves the connection's setting as it was.
    db = await createTestDb(dialect, { durableCommits: true });
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    t = catalogStack(db);
    shopId = (await createShopFixture(t.services)).shopId;
  });

  it('imports a YML feed: products, categories with levels and counts, locations, and serves it', async () => {
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(0);
    const result = await importTestFeed(t.services, shopId, sampleFeed());
    expect(result).toEqual({ generation: 1, products: 4, categories: 4, locations: 3, skippedCount: 0, skipped: [] });
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(1);

    const products = await productRows(db, shopId);
    expect(products.map((p) => [p.id, p.price, p.oldprice, p.widgetable, p.available])).toEqual([
      ['sku-1', 199050, 249000, 1, 1],
      ['sku-2', 199050, null, 1, 1],
      ['sku-3', 35000, 50000, 1, 0],
      ['sku-4', null, null, 0, 1],
    ]);
    expect(products[0]).toMatchObject({
      generation: 1,
      group_id: 'g-1',
      currency_id: 'RUB',
      vendor: 'Acme',
      model: 'Runner',
      vendor_code: 'AC-1',
      barcode: '4600000000011',
      description: 'Light running shoes',
      ignored: 0,
    });
    expect(JSON.parse(products[0]?.params ?? '')).toEqual([
      { key: 'Color', values: ['red'] },
      { key: 'Size', values: ['42', '43'], unit: 'EU' },
    ]);
    expect(JSON.parse(products[0]?.pictures ?? '')).toEqual(['https://img.shop.example/sku-1.jpg', 'https://img.shop.example/sku-1b.jpg']);
    expect(JSON.parse(products[2]?.category_ids ?? '')).toEqual(['4', '2']);

    const categories = await categoryRows(db, shopId);
    expect(
      categories.map((c) => [
        c.external_id,
        c.parent_external_id,
        c.level,
        c.product_count,
        c.discount_product_count,
        JSON.parse(c.location_ids) as string[],
      ]),
    ).toEqual([
      ['1', null, 1, 1, 0, ['msk', 'ru', 'spb']],
      ['2', '1', 2, 1, 1, ['msk', 'ru', 'spb']],
      ['3', '2', 3, 2, 1, ['msk', 'spb']],
      ['4', null, 1, 1, 1, ['msk', 'ru', 'spb']],
    ]);
    expect((await locationRows(db, shopId)).map((l) => [l.id, l.name, l.type, l.parent_id])).toEqual([
      ['msk', 'Moscow', 'city', 'ru'],
      ['ru', 'Russia', 'country', null],
      ['spb', 'Saint Petersburg', 'city', 'ru'],
    ]);
  });

  it('stores the same rows from the JSON feed as from the YML feed', async () => {
    await importTestFeed(t.services, shopId, sampleFeed(), 'yml');
    const strip = <T extends { generation: number }>(rows: T[]) => rows.map(({ generation: _g, ...rest }) => rest);
    const fromYml = { products: strip(await productRows(db, shopId)), categories: strip(await categoryRows(db, shopId)) };
    await importTestFeed(t.services, shopId, sampleFeed(), 'json');
    expect({ products: strip(await productRows(db, shopId)), categories: strip(await categoryRows(db, shopId)) }).toEqual(fromYml);
  });

  it('replaces the catalog on re-import: absent products go, older generations are deleted', async () => {
    await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: [offer('a'), offer('b'), offer('c')] });
    await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: [offer('b', { price: '20' }), offer('d')] });
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(2);
    const products = await productRows(db, shopId);
    expect(products.map((p) => [p.generation, p.id, p.price])).toEqual([
      [2, 'b', 2000],
      [2, 'd', 1000],
    ]);
    expect((await categoryRows(db, shopId)).map((c) => c.generation)).toEqual([2]);
  });

  it.runIf(dialect === 'postgres')('brings the planner statistics of the products up to date before an import lands', async () => {
    const analyzed = async () => {
      const { rows } = await sql<{
        n: number | string;
      }>`select analyze_count + autoanalyze_count as n from pg_stat_user_tables where relname = 'catalog_products'`.execute(db.db);
      return Number(rows[0]?.n ?? 0);
    };
    const before = await analyzed();
    await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: [offer('a')] });
    expect(await analyzed()).toBeGreaterThan(before);
  });

  it('keeps category ids stable across imports and never reuses one', async () => {
    const idsOf = async () => Object.fromEntries((await categoryRows(db, shopId)).map((c) => [c.external_id, Number(c.id)]));
    await importTestFeed(t.services, shopId, {
      categories: [
        { id: 'x', name: 'X' },
        { id: 'y', name: 'Y' },
      ],
      offers: [],
    });
    const first = await idsOf();
    expect(Object.values(first).sort()).toEqual([1, 2]);
    await importTestFeed(t.services, shopId, {
      categories: [
        { id: 'z', name: 'Z' },
        { id: 'y', name: 'Y2' },
      ],
      offers: [],
    });
    await importTestFeed(t.services, shopId, {
      categories: [
        { id: 'x', name: 'X' },
        { id: 'z', name: 'Z' },
      ],
      offers: [],
    });
    expect(await idsOf()).toEqual({ x: first.x, z: 3 });

    // Ids are per shop: another shop starts at 1 again.
    const other = (await createShopFixture(t.services)).shopId;
    await importTestFeed(t.services, other, { categories: [{ id: 'q', name: 'Q' }], offers: [] });
    expect((await categoryRows(db, other)).map((c) => Number(c.id))).toEqual([1]);
  });

  it('leaves the served catalog untouched when a later import is malformed, and removes its staged rows', async () => {
    await importTestFeed(t.services, shopId, sampleFeed());
    const before = await productRows(db, shopId);
    // Well-formed offers first, so that rows are staged before the document breaks.
    const broken = buildYml({ categories: [{ id: '9', name: 'New' }], offers: [offer('n1'), offer('n2')] }).replace(
      '</offers>',
      '<offer id="x">',
    );
    const error = await refusalOf(t.services.catalog.importFeed({ shopId, format: 'yml', body: broken, source: 'admin' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^The feed is not well-formed XML/);

    expect(await t.services.catalog.currentGeneration(shopId)).toBe(1);
    expect(await productRows(db, shopId)).toEqual(before);
    expect((await categoryRows(db, shopId)).every((c) => c.generation === 1)).toBe(true);
    const [failed] = await t.services.catalog.listImports(shopId);
    expect(failed).toMatchObject({ generation: 2, status: 'failed', error: error.message });

    // The next good import lands as usual.
    await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: [offer('z')] });
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(3);
  });

  it('fails a feed that is not XML or JSON with 422 and no catalog', async () => {
    for (const [format, body] of [
      ['yml', 'hello'],
      ['json', 'hello'],
      ['yml', '{"offers":[]}'],
      ['json', buildYml(sampleFeed())],
    ] as const) {
      const error = await refusalOf(t.services.catalog.importFeed({ shopId, format, body, source: 'admin' }));
      expect(error.code).toBe('VALIDATION_FAILED');
    }
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(0);
    expect(await productRows(db, shopId)).toEqual([]);
  });

  it('runs landed listeners inside the swap, when both generations are still there', async () => {
    const seen: { landing: CatalogLanding; previous: string[]; next: string[]; served: number }[] = [];
    const listener: CatalogLandedListener = {
      name: 'test',
      async onLanded(trx, landing) {
        const ids = async (generation: number) =>
          (
            await trx
              .selectFrom('catalog_products')
              .select('id')
              .where('shop_id', '=', landing.shopId)
              .where('generation', '=', generation)
              .orderBy('id')
              .execute()
          ).map((r) => r.id);
        const served = await trx
          .selectFrom('catalogs')
          .select('generation')
          .where('shop_id', '=', landing.shopId)
          .executeTakeFirstOrThrow();
        seen.push({
          landing,
          previous: await ids(landing.previousGeneration),
          next: await ids(landing.generation),
          served: Number(served.generation),
        });
      },
    };
    t = catalogStack(db, {}, { catalogListeners: [listener] });
    await importTestFeed(t.services, shopId, { offers: [offer('a'), offer('b')] });
    await importTestFeed(t.services, shopId, { offers: [offer('b'), offer('c')] });
    expect(seen).toEqual([
      { landing: { shopId, previousGeneration: 0, generation: 1, now: t.clock.now() }, previous: [], next: ['a', 'b'], served: 1 },
      { landing: { shopId, previousGeneration: 1, generation: 2, now: t.clock.now() }, previous: ['a', 'b'], next: ['b', 'c'], served: 2 },
    ]);
  });

  it('fails the import when a landed listener fails, and keeps the old catalog', async () => {
    await importTestFeed(t.services, shopId, { offers: [offer('a')] });
    const broken = catalogStack(
      db,
      {},
      {
        catalogListeners: [{ name: 'broken', onLanded: () => Promise.reject(new AppError('CONFLICT', 'Listener refused.')) }],
      },
    );
    await expect(importTestFeed(broken.services, shopId, { offers: [offer('b')] })).rejects.toThrow('Listener refused.');
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(1);
    expect((await productRows(db, shopId)).map((p) => [p.generation, p.id])).toEqual([[1, 'a']]);
  });

  it('logs a failure the import did not foresee without its internal message', async () => {
    async function* breaking(): AsyncIterable<string> {
      yield await Promise.resolve('<yml_catalog><shop><offers>');
      throw new TypeError("Cannot read properties of undefined (reading 'length') at /srv/patron/dist/x.js:1:2");
    }
    await expect(t.services.catalog.importFeed({ shopId, format: 'yml', body: breaking(), source: 'admin' })).rejects.toThrow(TypeError);
    const { lastImport } = await t.services.catalog.getFeed(shopId);
    expect(lastImport).toMatchObject({ status: 'failed', error: INTERNAL_IMPORT_FAILURE });
    expect(lastImport?.error).not.toMatch(/TypeError|Cannot read|\/srv/);
  });

  it('logs an upload that broke off, and the sentence of a refusal, as they are', async () => {
    async function* aborted(): AsyncIterable<string> {
      yield await Promise.resolve('<yml_catalog><shop><offers>');
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    }
    await expect(t.services.catalog.importFeed({ shopId, format: 'yml', body: aborted(), source: 'admin' })).rejects.toThrow();
    expect((await t.services.catalog.getFeed(shopId)).lastImport?.error).toBe(UPLOAD_BROKE_OFF);

    const refusing = catalogStack(
      db,
      {},
      {
        catalogListeners: [{ name: 'refusing', onLanded: () => Promise.reject(new AppError('CONFLICT', 'Listener refused.')) }],
      },
    );
    await expect(importTestFeed(refusing.services, shopId, { offers: [offer('b')] })).rejects.toThrow('Listener refused.');
    expect((await t.services.catalog.getFeed(shopId)).lastImport?.error).toBe('Listener refused.');
  });

  it('refuses an import without a body before logging anything', async () => {
    const body = undefined as unknown as string;
    await expect(t.services.catalog.importFeed({ shopId, format: 'yml', body, source: 'admin' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The request has no feed: send the feed document as the body.',
    });
    expect((await t.services.catalog.getFeed(shopId)).lastImport).toBeNull();
  });

  it('skips offers without an id, with a bad price or a repeated id, and records why', async () => {
    const result = await importTestFeed(t.services, shopId, {
      categories: [
        { id: '1', name: 'A' },
        { id: '2', name: 'B', parentId: '404' },
      ],
      offers: [
        offer('ok'),
        { name: 'no id', price: '1' },
        offer('neg', { price: '-5' }),
        offer('nan', { price: 'free' }),
        offer('ok', { name: 'Duplicate' }),
        offer('old', { oldprice: 'n/a' }),
      ],
    });
    expect(result.products).toBe(2);
    expect(result.skipped).toEqual([
      { id: '', reason: 'offer has no id' },
      { id: 'neg', reason: 'price is negative' },
      { id: 'nan', reason: 'price is not a number' },
      { id: 'ok', reason: 'offer id appears twice; the later one is skipped' },
      { id: '2', reason: 'parent category 404 is not in the feed; it became a root' },
    ]);
    const [logged] = await t.services.catalog.listImports(shopId);
    expect(logged).toMatchObject({ status: 'done', products: 2, skippedCount: 5, skipped: result.skipped });
    expect((await productRows(db, shopId)).find((p) => p.id === 'old')).toMatchObject({ price: 1000, oldprice: null });
  });

  it('keeps the first 100 skipped entries and counts them all', async () => {
    const offers = Array.from({ length: 150 }, (_, i) => offer(`bad${i}`, { price: '-1' }));
    const result = await importTestFeed(t.services, shopId, { offers: [...offers, offer('good')] });
    expect(result.products).toBe(1);
    expect(result.skippedCount).toBe(150);
    expect(result.skipped).toHaveLength(100);
    expect(result.skipped[99]).toEqual({ id: 'bad99', reason: 'price is negative' });
  });

  it('judges offers that come before the categories once every category is known', async () => {
    const yml = buildYml({ categories: [{ id: '1', name: 'A' }], offers: [offer('a'), offer('b', { categoryIds: ['nope'] })] });
    // Move the categories after the offers.
    const categories = /<categories>[\s\S]*<\/categories>/.exec(yml)?.[0] ?? '';
    const reordered = yml.replace(categories, '').replace('</offers>', `</offers>${categories}`);
    expect(reordered.indexOf('<categories>')).toBeGreaterThan(reordered.indexOf('<offers>'));
    await t.services.catalog.importFeed({ shopId, format: 'yml', body: reordered, source: 'admin' });
    expect((await productRows(db, shopId)).map((p) => [p.id, p.widgetable])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
    const json = buildJsonFeed({ categories: [{ id: '1', name: 'A' }], offers: [offer('c')] });
    await t.services.catalog.importFeed({
      shopId,
      format: 'json',
      body: JSON.stringify({ offers: json.offers, categories: json.categories }),
      source: 'admin',
    });
    expect((await productRows(db, shopId)).map((p) => [p.id, p.widgetable])).toEqual([['c', 1]]);
  });

  it('imports thousands of offers across several write transactions and replaces them all', async () => {
    const many = Array.from({ length: 12_345 }, (_, i) => offer(`p${String(i).padStart(5, '0')}`));
    const first = await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: many });
    expect(first.products).toBe(12_345);
    const second = await importTestFeed(t.services, shopId, { categories: [{ id: '1', name: 'A' }], offers: many.slice(0, 6_000) });
    expect(second.products).toBe(6_000);
    const counts = await db.db
      .selectFrom('catalog_products')
      .select(['generation', (eb) => eb.fn.countAll<number>().as('n')])
      .where('shop_id', '=', shopId)
      .groupBy('generation')
      .execute();
    expect(counts.map((c) => [Number(c.generation), Number(c.n)])).toEqual([[2, 6_000]]);
    expect((await categoryRows(db, shopId))[0]?.product_count).toBe(6_000);
  });

  it('refuses a second import while one runs (409), however long its feed stalls: its heartbeat goes on', async () => {
    // A two-second lease: the import beats every 250 ms of real time, on the test's clock.
    const short = catalogStack(db, { PATRON_JOB_LEASE_SECONDS: '2' });
    const yml = buildYml({ offers: [offer('slow')] });
    const paused = pausedBody(yml.slice(0, 100), yml.slice(100));
    const running = short.services.catalog.importFeed({ shopId, format: 'yml', body: paused.body, source: 'cli' });
    await paused.started;
    expect((await refusalOf(importTestFeed(short.services, shopId, { offers: [offer('fast')] }))).code).toBe('CONFLICT');

    // Past the lease with no byte of the feed arriving: the beats alone keep the import alive.
    short.clock.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await refusalOf(importTestFeed(short.services, shopId, { offers: [offer('fast')] }))).code).toBe('CONFLICT');

    paused.release();
    expect((await running).products).toBe(1);
    expect((await short.services.catalog.listImports(shopId)).map((i) => [i.generation, i.status])).toEqual([[1, 'done']]);
  });

  it('takes over an import whose heartbeat stopped for the lease, and the stopped one may not land after', async () => {
    // `stalled` beats once an hour, as if its process were gone; `t` has the default 10 s lease.
    const stalled = catalogStack(db, { PATRON_JOB_LEASE_SECONDS: '3600' });
    stalled.clock.set(t.clock.now());
    const yml = buildYml({ offers: [offer('slow')] });
    const paused = pausedBody(yml.slice(0, 100), yml.slice(100));
    const running = stalled.services.catalog.importFeed({ shopId, format: 'yml', body: paused.body, source: 'cli' });
    await paused.started;
    t.clock.advance(9_000);
    expect((await refusalOf(importTestFeed(t.services, shopId, { offers: [offer('fast')] }))).code).toBe('CONFLICT');

    // Ten seconds without a heartbeat: the running import counts as dead and a new one may start.
    t.clock.advance(1_000);
    await importTestFeed(t.services, shopId, { offers: [offer('fresh')] });
    // The refused import never took a generation.
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(2);

    // The stalled import wakes up: a later import took over, so it may not land.
    paused.release();
    const late = await refusalOf(running);
    expect(late.code).toBe('CONFLICT');
    expect((await productRows(db, shopId)).map((p) => p.id)).toEqual(['fresh']);
    const log = await t.services.catalog.listImports(shopId);
    expect(log.map((i) => [i.generation, i.source, i.status])).toEqual([
      [2, 'admin', 'done'],
      [1, 'cli', 'failed'],
    ]);
  });

  it('refuses a feed larger than the byte limit and keeps the catalog', async () => {
    await importTestFeed(t.services, shopId, { offers: [offer('a')] });
    const body = async function* () {
      await Promise.resolve();
      yield Buffer.from(buildYml({ offers: [offer('b')] }));
    };
    const error = await refusalOf(t.services.catalog.importFeed({ shopId, format: 'yml', body: body(), source: 'admin', maxBytes: 100 }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await t.services.catalog.currentGeneration(shopId)).toBe(1);
  });

  it('leaves the connection as durable as it was after staging with relaxed commits', async () => {
    const setting = async () => (await sql<{ synchronous: number }>`pragma synchronous`.execute(db.db)).rows[0]?.synchronous;
    const before = dialect === 'sqlite' ? await setting() : undefined;
    await importTestFeed(t.services, shopId, { offers: [offer('a')] });
    if (dialect === 'sqlite') {
      expect(await setting()).toBe(before);
    } else {
      const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db.db);
      expect(rows[0]?.synchronous_commit).toBe('on');
    }
  });

  it('answers NOT_FOUND for an unknown shop', async () => {
    const error = await refusalOf(importTestFeed(t.services, 'abcdef0123456789abcdef01234567', sampleFeed()));
    expect(error.code).toBe('NOT_FOUND');
  });

  it('reports progress while reading', async () => {
    const seen: number[] = [];
    const text = buildYml({ offers: Array.from({ length: 300 }, (_, i) => offer(`o${i}`)) });
    const body = async function* () {
      for (let i = 0; i < text.length; i += 4096) {
        // A stream delivers its chunks across turns of the event loop.
        await Promise.resolve();
        yield Buffer.from(text.slice(i, i + 4096));
      }
    };
    await t.services.catalog.importFeed({ shopId, format: 'yml', body: body(), source: 'cli', onProgress: (p) => seen.push(p.offers) });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(300);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});
