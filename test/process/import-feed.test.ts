import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ShopsService } from '../../src/modules/shops/shops.service.js';
import { FeedProgress } from '../../src/process/progress.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { buildJsonFeed, buildYml, sampleFeed } from '../helpers/feed-builder.js';
import { databaseEnv, runCli, type Env } from './cli-harness.js';

describe.each(TEST_DIALECTS)('patron import feed on %s', (dialect) => {
  let db: TestDb;
  let env: Env;
  let dir: string;
  let shopId: string;
  let server: http.Server;
  let serverUrl: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    env = databaseEnv(db.options);
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-feed-'));
    shopId = (await new ShopsService({ db, clock: new ManualClock() }).createShop({ name: 'Feed shop' })).shop.shopId;
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(buildJsonFeed({ categories: [{ id: '1', name: 'All' }], offers: [{ id: 'url-1', price: 3 }] })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fs.promises.rm(dir, { recursive: true, force: true });
    await db.cleanup();
  });

  const productIds = async () =>
    (await db.db.selectFrom('catalog_products').select('id').where('shop_id', '=', shopId).orderBy('id').execute()).map((r) => r.id);

  it('imports a YML file, shows progress on stderr and prints the counts and skipped reasons', async () => {
    const file = path.join(dir, 'feed.xml');
    const feed = sampleFeed();
    await fs.promises.writeFile(file, buildYml({ ...feed, offers: [...(feed.offers ?? []), { id: 'neg', price: '-1' }] }));
    const result = await runCli(['import', 'feed', file, '--shop', shopId], env, 60_000);
    expect(result.stderr).toMatch(/Importing feed: .* of .* \(100%\), 5 offers/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported .* into shop [0-9a-f]{30} \(catalog generation 1\):\n/);
    expect(result.stdout).toContain(
      '  products    4\n  categories  4\n  locations   3\n  skipped     1\nSkipped:\n  neg: price is negative\n',
    );
    expect(await productIds()).toEqual(['sku-1', 'sku-2', 'sku-3', 'sku-4']);
  }, 60_000);

  it('imports a JSON file by its extension, and a URL through the safe fetch', async () => {
    const file = path.join(dir, 'feed.json');
    await fs.promises.writeFile(file, JSON.stringify(buildJsonFeed({ offers: [{ id: 'json-1' }] })));
    expect((await runCli(['import', 'feed', file, '--shop', shopId], env, 60_000)).code).toBe(0);
    expect(await productIds()).toEqual(['json-1']);

    const refused = await runCli(['import', 'feed', serverUrl, '--shop', shopId], env, 60_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The feed URL could not be fetched: /);
    const fetched = await runCli(['import', 'feed', serverUrl, '--shop', shopId], { ...env, PATRON_FETCH_ALLOW_PRIVATE: 'true' }, 60_000);
    expect(fetched.code).toBe(0);
    expect(await productIds()).toEqual(['url-1']);
  }, 90_000);

  it('refuses a malformed feed (exit 2), an unknown shop and a missing file (exit 1), keeping the catalog', async () => {
    const bad = path.join(dir, 'bad.xml');
    await fs.promises.writeFile(bad, '<yml_catalog><shop><offers><offer id="x">');
    const before = await productIds();
    const malformed = await runCli(['import', 'feed', bad, '--shop', shopId], env, 60_000);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/The feed is not well-formed XML/);

    const unknown = await runCli(['import', 'feed', bad, '--shop', 'abcdef0123456789abcdef01234567'], env, 60_000);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Shop not found.');

    const missing = await runCli(['import', 'feed', path.join(dir, 'nope.xml'), '--shop', shopId], env, 60_000);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.xml: ENOENT\./);

    const usage = await runCli(['import', 'feed', bad], env, 60_000);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('patron import feed needs --shop <shop_id>.');
    expect(await productIds()).toEqual(before);
  }, 120_000);
});

describe('feed progress line', () => {
  function stream(isTTY: boolean) {
    const written: string[] = [];
    return { out: { isTTY, write: (text: string) => written.push(text) }, written };
  }

  it('redraws one line on a terminal, at most ten times a second, and ends it', () => {
    let now = 0;
    const { out, written } = stream(true);
    const progress = new FeedProgress(out, 2048, () => now);
    progress.update({ bytes: 512, offers: 10 });
    now = 50;
    progress.update({ bytes: 700, offers: 12 });
    now = 150;
    progress.update({ bytes: 1024, offers: 1500 });
    progress.finish({ bytes: 2048, offers: 3000 });
    expect(written).toEqual([
      '\rImporting feed: 512 B of 2.0 KiB (25%), 10 offers\x1b[K',
      '\rImporting feed: 1.0 KiB of 2.0 KiB (50%), 1,500 offers\x1b[K',
      '\rImporting feed: 2.0 KiB of 2.0 KiB (100%), 3,000 offers\x1b[K',
      '\n',
    ]);
  });

  it('writes a plain line every few seconds elsewhere, without a total when unknown', () => {
    let now = 0;
    const { out, written } = stream(false);
    const progress = new FeedProgress(out, undefined, () => now);
    progress.update({ bytes: 10, offers: 1 });
    now = 4_000;
    progress.update({ bytes: 20, offers: 2 });
    now = 5_000;
    progress.update({ bytes: 3 * 1024 * 1024, offers: 3 });
    progress.finish({ bytes: 3 * 1024 * 1024, offers: 4 });
    expect(written).toEqual([
      'Importing feed: 10 B, 1 offers\n',
      'Importing feed: 3.0 MiB, 3 offers\n',
      'Importing feed: 3.0 MiB, 4 offers\n',
    ]);
  });
});
