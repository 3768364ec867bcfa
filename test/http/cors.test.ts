import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createShopFixture, type ShopFixture } from '../helpers/factories.js';
import { expectAdminError } from '../admin/admin-assertions.js';
import { createPublicTestApp, expectStatusError } from './public-test-app.js';
import { testRoutes } from './test-routes.js';

const PREFLIGHT = {
  origin: 'https://shop.example',
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type',
};

describe('CORS on the public API', () => {
  let t: TestApp;
  let shop: ShopFixture;

  beforeAll(async () => {
    t = await createPublicTestApp([testRoutes], { env: { PATRON_BODY_LIMIT: '2048' } });
    shop = await createShopFixture(t.app.services);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a preflight on a public path with 204 and the methods of the path', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/test/deferred', headers: PREFLIGHT });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '86400',
      allow: 'POST, OPTIONS',
    });
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('allows Content-Type when the preflight names no headers, and matches path parameters and a query', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/test/items/42?shop_id=x' });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-headers']).toBe('Content-Type');
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  });

  it('still answers 404 to OPTIONS on an unknown path', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/no/such/path', headers: PREFLIGHT });
    expectStatusError(response, 404, 'No endpoint exists at this path.');
  });

  it('gives no preflight under /admin/: OPTIONS there stays a wrong method', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/admin/v1/shops', headers: { ...PREFLIGHT, ...t.adminHeaders } });
    expect(expectAdminError(response, 405, 'METHOD_NOT_ALLOWED')).toBe('Method OPTIONS is not allowed for this endpoint.');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('marks public successes readable by any origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/test/shop?shop_id=${shop.shopId}`, headers: PREFLIGHT });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('marks public failures readable too: credentials, validation, parse errors, body limit, faults', async () => {
    const failures = [
      await t.app.inject({ method: 'GET', url: '/test/shop' }),
      await t.app.inject({ method: 'POST', url: '/test/schema', payload: { shop_id: shop.shopId, event: 'x' } }),
      await t.app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload: '{' }),
      await t.app.inject({ method: 'POST', url: '/test/echo', payload: { big: 'x'.repeat(4096) } }),
      await t.app.inject({ method: 'GET', url: '/test/boom' }),
    ];
    expect(failures.map((r) => r.statusCode)).toEqual([401, 422, 400, 413, 500]);
    for (const response of failures) expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('leaves admin answers without CORS headers', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/shops',
      headers: { ...t.adminHeaders, origin: 'https://x.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
