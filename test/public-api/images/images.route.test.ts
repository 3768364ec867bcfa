import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLink } from '../../../src/modules/images/domain/links.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createShopFixture } from '../../helpers/factories.js';
import { landCatalogFixture } from '../../modules/images/catalog-fixture.js';
import { startPictureServer, type PictureServer } from '../../modules/images/picture-server.js';

const NOT_FOUND = { status: 'error', payload: { message: 'No endpoint exists at this path.' } };

describe('GET /images/<shop_id>/<hash>/<size>.jpg', () => {
  let t: TestApp;
  let pictures: PictureServer;
  let dataDir: string;
  let shopId: string;
  let hash: string;
  let base: string;

  beforeAll(async () => {
    pictures = await startPictureServer();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-images-route-'));
    t = await createTestApp({
      env: {
        PATRON_DATA_DIR: dataDir,
        PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1',
        PATRON_PUBLIC_URL: 'https://img.patron.example/',
      },
    });
    ({ shopId } = await createShopFixture(t.app.services));
    await landCatalogFixture(t.db.db, shopId, 1, [{ id: 'p1', pictures: [pictures.jpegUrl] }]);
    // Through the process's job runner, as `patron serve` runs the job after a landing.
    const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    await t.app.services.jobs.enqueue('images.download', { shopId, generation: 1 });
    expect(await runner.runDue()).toBe(1);
    hash = hashLink(pictures.jpegUrl);
    base = `/images/${shopId}/${hash}`;
  });

  afterAll(async () => {
    await t?.close();
    await pictures?.close();
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  it('serves the stored thumbnail with its type, length and cache headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${base}/140.jpg` });
    expect(response.statusCode).toBe(200);
    const onDisk = await fs.promises.readFile(path.join(dataDir, 'images', shopId, hash.slice(0, 2), hash, '140.jpg'));
    expect(response.rawPayload.equals(onDisk)).toBe(true);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-length']).toBe(String(onDisk.length));
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(String(response.headers['last-modified'])).getTime()).toBeGreaterThan(0);
  });

  it('is the file that image_url_resized links to, under PATRON_PUBLIC_URL', async () => {
    const view = (await t.app.services.images.viewsFor(shopId, [pictures.jpegUrl])).get(pictures.jpegUrl);
    const link = view?.resized?.['520'];
    expect(link).toBe(`https://img.patron.example${base}/520.jpg`);
    const response = await t.app.inject({ method: 'GET', url: new URL(link!).pathname });
    expect(response.statusCode).toBe(200);
  });

  it('answers 304 to a matching If-None-Match or a later If-Modified-Since', async () => {
    const first = await t.app.inject({ method: 'GET', url: `${base}/200.jpg` });
    const etag = String(first.headers.etag);
    const byTag = await t.app.inject({ method: 'GET', url: `${base}/200.jpg`, headers: { 'if-none-match': etag } });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    const byDate = await t.app.inject({
      method: 'GET',
      url: `${base}/200.jpg`,
      headers: { 'if-modified-since': String(first.headers['last-modified']) },
    });
    expect(byDate.statusCode).toBe(304);
    const stale = await t.app.inject({ method: 'GET', url: `${base}/200.jpg`, headers: { 'if-none-match': '"other"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const get = await t.app.inject({ method: 'GET', url: `${base}/120.jpg` });
    const response = await t.app.inject({ method: 'HEAD', url: `${base}/120.jpg` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(response.headers.etag).toBe(get.headers.etag);
    expect(response.rawPayload.length).toBe(0);
  });

  it.each([
    ['an unknown picture', () => `/images/${shopId}/${'0'.repeat(64)}/120.jpg`],
    ['a size that is not made', () => `${base}/121.jpg`],
    ['a size of the list but another extension', () => `${base}/120.png`],
    ['an upper-case hash', () => `/images/${shopId}/${hash.toUpperCase()}/120.jpg`],
    ['a short hash', () => `/images/${shopId}/${hash.slice(0, 63)}/120.jpg`],
    ['a malformed shop id', () => `/images/${shopId.slice(1)}/${hash}/120.jpg`],
    ['another shop', () => `/images/${'a'.repeat(30)}/${hash}/120.jpg`],
    ['an encoded traversal in the file', () => `${base}/..%2f..%2f..%2fpatron.sqlite`],
    ['an encoded traversal in the hash', () => `/images/${shopId}/..%2F..%2F..%2F/120.jpg`],
    ['a traversal with dots', () => `/images/${shopId}/../../patron.sqlite`],
    ['a NUL byte', () => `${base}/120.jpg%00.png`],
    ['a missing segment', () => `/images/${shopId}/${hash}`],
    ['an extra segment', () => `${base}/120.jpg/x`],
  ])('answers 404 like an unknown route for %s', async (_case, url) => {
    const response = await t.app.inject({ method: 'GET', url: url() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });

  it('answers 405 to another method', async () => {
    const response = await t.app.inject({ method: 'POST', url: `${base}/120.jpg` });
    expect(response.statusCode).toBe(405);
  });
});
