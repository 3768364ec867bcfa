import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/admin/assets/index-Ab12Cd34.js"></script></head><body></body></html>';
const ASSET = 'console.log("patron admin");';

describe('the admin UI under /admin/', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-admin-ui-'));
    await fs.promises.mkdir(path.join(dir, 'assets'));
    await fs.promises.writeFile(path.join(dir, 'index.html'), INDEX);
    await fs.promises.writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), ASSET);
    await fs.promises.writeFile(path.join(dir, 'assets', '.hidden'), 'HIDDEN');
    await fs.promises.writeFile(path.join(dir, 'secret.txt'), 'SECRET');
    t = await createTestApp({ adminUiDir: dir });
  });
  afterAll(async () => {
    await t.close();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('answers index.html at /admin/, never cached, with the strict security headers', async () => {
    for (const url of ['/admin/', '/admin']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
    }
  });

  it('answers index.html for a deep link of the app, with its query string', async () => {
    for (const url of ['/admin/shops/0123456789abcdef0123456789abcd/settings', '/admin/invite/tok_123?x=1', '/admin/sign-in']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves a hashed asset with a year-long immutable cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/assets/index-Ab12Cd34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(ASSET);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a missing asset with 404, not with index.html', async () => {
    for (const url of ['/admin/assets/index-Zz99Zz99.js', '/admin/assets/', '/admin/assets/.hidden', '/admin/assets/..%2fsecret.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<html');
      expect(res.body, url).not.toMatch(/HIDDEN|SECRET/);
    }
  });

  it('never serves a file outside assets/: a dot-dot path is only another path of the app', async () => {
    for (const url of ['/admin/assets/%2e%2e/secret.txt', '/admin/assets/../secret.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('SECRET');
    }
  });

  it('leaves /admin/v1 to the API: an unknown API path is its JSON 404, a wrong method its 405', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/admin/v1/no-such-thing', headers: t.adminHeaders });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const bare = await t.app.inject({ method: 'GET', url: '/admin/v1' });
    expect(bare.statusCode).toBe(404);
    expect(bare.headers['content-type']).toMatch(/^application\/json/);
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/admin/v1/shops', headers: t.adminHeaders });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toContain('GET');
    const shops = await t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: t.adminHeaders });
    expect(shops.statusCode).toBe(200);
    expect(shops.json()).toHaveProperty('shops');
  });

  it('keeps the app out of the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths.filter((p) => p.startsWith('/admin/') && !p.startsWith('/admin/v1/'))).toEqual([]);
  });
});

describe('the admin UI when web/dist was never built', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-admin-ui-none-'));
    t = await createTestApp({ adminUiDir: path.join(dir, 'dist') });
  });
  afterAll(async () => {
    await t.close();
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('answers a short plain page saying how to build it, and the API still works', async () => {
    for (const url of ['/admin/', '/admin/shops']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toContain('npm run build');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/admin/assets/index-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(404);
    const shops = await t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: t.adminHeaders });
    expect(shops.statusCode).toBe(200);
  });
});
