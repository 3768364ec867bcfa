import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { JobQueue } from '../../../src/jobs/queue.js';
import type { CatalogLandedListener } from '../../../src/modules/catalog/catalog.types.js';
import { hashLink } from '../../../src/modules/images/domain/links.js';
import { ImagesService } from '../../../src/modules/images/images.service.js';
import { THUMBNAIL_SIZES } from '../../../src/modules/images/images.types.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { landCatalogFixture } from './catalog-fixture.js';
import { startPictureServer, type PictureServer } from './picture-server.js';

const PUBLIC_URL = 'https://patron.example/base';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(TEST_DIALECTS)('product pictures on %s', (dialect) => {
  let db: TestDb;
  let dataDir: string;
  let clock: ManualClock;
  let jobs: JobQueue;
  let images: ImagesService;
  let landed: CatalogLandedListener | undefined;
  let shopId: string;
  // One peer per dialect, so that request counts start from zero.
  let pictures: PictureServer;

  beforeAll(async () => {
    pictures = await startPictureServer();
    db = await createTestDb(dialect);
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-images-'));
    clock = new ManualClock();
    jobs = new JobQueue({ db, clock });
    images = new ImagesService({
      db,
      clock,
      jobs,
      config: { dataDir, publicUrl: PUBLIC_URL, fetchAllowPrivate: ['127.0.0.1'] },
      limits: { ...pictures.limits, timeoutMs: 2000 },
    });
    // What the catalog would run at a landing: the test lands catalogs itself (catalog-fixture.ts).
    landed = images.landedListener();
    ({ shopId } = await createShopFixture({ shops: new ShopsService({ db, clock }) }));
  });

  afterAll(async () => {
    await pictures?.close();
    await db?.cleanup();
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  const run = (generation: number, signal = new AbortController().signal) => images.downloadForShop({ shopId, generation }, signal);
  const requestsOf = (url: string) => pictures.requests.filter((p) => url.endsWith(p)).length;
  const countPictureRows = async () =>
    (await db.db.selectFrom('product_images').select('link_hash').where('shop_id', '=', shopId).execute()).length;
  const fileOf = (link: string, size: number) =>
    path.join(dataDir, 'images', shopId, hashLink(link).slice(0, 2), hashLink(link), `${size}.jpg`);

  it('enqueues one download job per landing, in the landing transaction', async () => {
    expect(landed?.name).toBe('images');
    const landing = { shopId, previousGeneration: 0, generation: 1, now: clock.now() };
    await db.db.transaction().execute((trx) => landed!.onLanded(trx, landing));
    await db.db.transaction().execute((trx) => landed!.onLanded(trx, landing));
    const rows = await db.db.selectFrom('jobs').selectAll().where('name', '=', 'images.download').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ shopId, generation: 1 });
    expect(rows[0]!.idempotency_key).toBe(`${shopId}:1`);
  });

  it('downloads each picture once, makes 8 square JPEG thumbnails and records every failure with its reason', async () => {
    await landCatalogFixture(db.db, shopId, 1, [
      { id: 'p01', pictures: [pictures.pngUrl, pictures.jpegUrl] },
      { id: 'p02', pictures: [pictures.jpegUrl] },
      { id: 'p03', pictures: [pictures.pngUrl] }, // the same picture as p01
      { id: 'p04', pictures: [pictures.missingUrl] },
      { id: 'p05', pictures: [pictures.htmlUrl] },
      { id: 'p06', pictures: [pictures.fakePngUrl] },
      { id: 'p07', pictures: [pictures.hugeUrl] },
      { id: 'p08', pictures: [pictures.giantUrl] },
      { id: 'p09', pictures: ['http://10.0.0.1/x.jpg'] },
      { id: 'p10', pictures: [] },
      { id: 'p11', pictures: [pictures.busyUrl] },
    ]);

    expect(await run(1)).toEqual({ superseded: false, done: 2, failed: 7 });

    expect(requestsOf(pictures.pngUrl)).toBe(1);
    for (const link of [pictures.pngUrl, pictures.jpegUrl]) {
      for (const size of THUMBNAIL_SIZES) {
        const meta = await sharp(fileOf(link, size)).metadata();
        expect({ size, format: meta.format, width: meta.width, height: meta.height }).toEqual({
          size,
          format: 'jpeg',
          width: size,
          height: size,
        });
      }
    }
    const views = await images.viewsFor(shopId, [
      pictures.missingUrl,
      pictures.htmlUrl,
      pictures.fakePngUrl,
      pictures.hugeUrl,
      pictures.giantUrl,
      'http://10.0.0.1/x.jpg',
      pictures.busyUrl,
    ]);
    expect([...views.values()].map((view) => view.error)).toEqual([
      'The server answered HTTP 404.',
      'The server sent text/html, which is not an accepted type.',
      'The file is not a picture in a supported format (JPEG, PNG, GIF, WebP or AVIF).',
      'The file is larger than 200000 bytes.',
      'The picture has more than 4 million pixels.',
      'The link points to a local or private network address, which is not allowed.',
      'The server answered HTTP 503.',
    ]);
    expect([...views.values()].every((view) => view.resized === null)).toBe(true);
  });

  it('contains the picture on white rather than cropping it', async () => {
    // The 300×200 half-transparent red PNG: white bars above and below, red flattened onto white in the middle.
    const { data, info } = await sharp(fileOf(pictures.pngUrl, 520)).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    for (const channel of pixel(260, 5)) expect(channel).toBeGreaterThan(245);
    const [r, g, b] = pixel(260, 260);
    expect(r).toBeGreaterThan(245);
    expect(g).toBeGreaterThan(110);
    expect(g).toBeLessThan(145);
    expect(b).toBeGreaterThan(110);
    expect(b).toBeLessThan(145);
  });

  it('gives the product mapper absolute thumbnail links, the original link, and nulls for unknown pictures', async () => {
    const views = await images.viewsFor(shopId, [pictures.jpegUrl, 'https://cdn.example/unknown.jpg']);
    const hash = hashLink(pictures.jpegUrl);
    const expected: Record<string, string> = { original: pictures.jpegUrl };
    for (const size of THUMBNAIL_SIZES) expected[String(size)] = `${PUBLIC_URL}/images/${shopId}/${hash}/${size}.jpg`;
    expect(views.get(pictures.jpegUrl)).toEqual({ resized: expected, error: null });
    expect(views.get('https://cdn.example/unknown.jpg')).toEqual({ resized: null, error: null });
  });

  it('does not download a done picture again, and retries failed ones only once their retry time has come', async () => {
    const before = pictures.requests.length;
    expect(await run(1)).toEqual({ superseded: false, done: 0, failed: 0 });
    expect(pictures.requests.length).toBe(before);

    // A passing failure (503) is tried again after an hour; the others (404, not a picture …) after a day.
    clock.advance(2 * HOUR);
    expect(await run(1)).toEqual({ superseded: false, done: 0, failed: 1 });
    expect(requestsOf(pictures.busyUrl)).toBe(2);
    expect(requestsOf(pictures.missingUrl)).toBe(1);
    clock.advance(23 * HOUR);
    expect(await run(1)).toEqual({ superseded: false, done: 0, failed: 7 });
    expect(requestsOf(pictures.missingUrl)).toBe(2);
    expect(requestsOf(pictures.pngUrl)).toBe(1);
    expect(requestsOf(pictures.jpegUrl)).toBe(1);
  });

  it('treats a changed picture link as a new picture, and leaves a superseded generation to its own job', async () => {
    const changed = `${pictures.pngUrl}?v=2`;
    await landCatalogFixture(db.db, shopId, 2, [
      { id: 'p01', pictures: [changed] },
      { id: 'p02', pictures: [pictures.jpegUrl] },
    ]);
    const before = pictures.requests.length;
    expect(await run(1)).toEqual({ superseded: true, done: 0, failed: 0 });
    expect(pictures.requests.length).toBe(before);

    expect(await run(2)).toEqual({ superseded: false, done: 1, failed: 0 });
    expect(pictures.requests.length).toBe(before + 1);
    expect(fs.existsSync(fileOf(changed, 310))).toBe(true);
    expect(fs.existsSync(fileOf(pictures.pngUrl, 310))).toBe(true);
  });

  it('deletes the pictures no landed catalog has shown for a week, files included', async () => {
    const changed = `${pictures.pngUrl}?v=2`;
    await landCatalogFixture(db.db, shopId, 3, [
      { id: 'p01', pictures: [changed] },
      { id: 'p02', pictures: [pictures.jpegUrl] },
    ]);
    clock.advance(6 * DAY);
    await run(3);
    expect(await countPictureRows()).toBe(10);
    clock.advance(2 * DAY);
    const before = pictures.requests.length;
    expect(await run(3)).toEqual({ superseded: false, done: 0, failed: 0 });
    expect(pictures.requests.length).toBe(before);
    expect(await countPictureRows()).toBe(2);
    expect(fs.existsSync(path.dirname(fileOf(pictures.pngUrl, 120)))).toBe(false);
    expect(fs.existsSync(fileOf(changed, 120))).toBe(true);
    expect(fs.existsSync(fileOf(pictures.jpegUrl, 120))).toBe(true);
    expect((await images.viewsFor(shopId, [pictures.missingUrl])).get(pictures.missingUrl)).toEqual({
      resized: null,
      error: null,
    });
  });

  it('stops when the job is aborted and leaves the unfinished picture pending for the retry', async () => {
    await landCatalogFixture(db.db, shopId, 4, [{ id: 'p01', pictures: [pictures.hangingUrl] }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('The job runner stopped')), 100);
    await expect(run(4, controller.signal)).rejects.toThrow('The job runner stopped');
    const row = await db.db
      .selectFrom('product_images')
      .select(['status', 'error'])
      .where('shop_id', '=', shopId)
      .where('link_hash', '=', hashLink(pictures.hangingUrl))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', error: null });
    // No temporary file is left behind by the pictures written so far.
    const leftovers = (await fs.promises.readdir(dataDir, { recursive: true })).filter((name) => String(name).endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('keeps each shop to its own pictures', async () => {
    const other = await createShopFixture({ shops: new ShopsService({ db, clock }) });
    const views = await images.viewsFor(other.shopId, [pictures.jpegUrl]);
    expect(views.get(pictures.jpegUrl)).toEqual({ resized: null, error: null });
  });
});
