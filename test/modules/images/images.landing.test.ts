import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../../helpers/feed-builder.js';
import { startPictureServer, type PictureServer } from './picture-server.js';

/** The whole path: a feed import lands → the job is enqueued with it → the runner makes the thumbnails. */
describe.each(TEST_DIALECTS)('pictures after a feed import on %s', (dialect) => {
  let t: TestApp;
  let pictures: PictureServer;
  let dataDir: string;
  let shopId: string;

  const offer = (id: string, picture: string): FeedOfferSpec => ({
    id,
    url: `https://shop.example/p/${id}`,
    price: '100.00',
    currencyId: 'RUB',
    categoryIds: ['1'],
    name: `Product ${id}`,
    pictures: [picture],
  });

  beforeAll(async () => {
    pictures = await startPictureServer();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-images-landing-'));
    t = await createTestApp({
      dialect,
      env: { PATRON_DATA_DIR: dataDir, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1', PATRON_PUBLIC_URL: 'https://img.example' },
    });
    ({ shopId } = await createShopFixture(t.app.services));
  });

  afterAll(async () => {
    await t?.close();
    await pictures?.close();
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  it('enqueues the download with the landing and records each picture once the job ran', async () => {
    const { generation } = await importTestFeed(t.app.services, shopId, {
      categories: [{ id: '1', name: 'Things' }],
      offers: [offer('a', pictures.jpegUrl), offer('b', pictures.missingUrl)],
    });
    const jobs = await t.db.db.selectFrom('jobs').selectAll().where('name', '=', 'images.download').execute();
    expect(jobs.map((job) => [job.idempotency_key, JSON.parse(job.payload) as unknown])).toEqual([
      [`${shopId}:${generation}`, { shopId, generation }],
    ]);

    const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    expect(await runner.runDue()).toBe(1);

    const views = await t.app.services.images.viewsFor(shopId, [pictures.jpegUrl, pictures.missingUrl]);
    expect(views.get(pictures.jpegUrl)?.resized?.['120']).toMatch(/^https:\/\/img\.example\/images\/[0-9a-f]{30}\/[0-9a-f]{64}\/120\.jpg$/);
    expect(views.get(pictures.missingUrl)).toEqual({ resized: null, error: 'The server answered HTTP 404.' });
  });
});
