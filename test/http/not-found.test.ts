import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { expectAdminError } from '../admin/admin-assertions.js';
import { createPublicTestApp, expectStatusError } from './public-test-app.js';
import { testRoutes } from './test-routes.js';

describe('unknown routes and wrong methods', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPublicTestApp([testRoutes]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 in the status envelope for an unknown public path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no/such/endpoint?shop_id=x' });
    expectStatusError(response, 404, 'No endpoint exists at this path.');
    expect(response.headers.allow).toBeUndefined();
  });

  it('answers 404 in the admin envelope for an unknown path under /admin/', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin/v1/no-such-thing', headers: t.adminHeaders });
    expect(expectAdminError(response, 404, 'NOT_FOUND')).toBe('No endpoint exists at this path.');
  });

  it('answers 405 with Allow in the status envelope for a wrong method on a public route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/deferred' });
    expectStatusError(response, 405, 'Method GET is not allowed for this endpoint.');
    expect(response.headers.allow).toBe('POST');
  });

  it('lists every method of the path in Allow, HEAD included for GET routes', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/test/echo' });
    expectStatusError(response, 405);
    expect(String(response.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'PATCH', 'POST']);
  });

  it('matches routes with path parameters and a trailing slash', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/test/items/abc/?x=1' });
    expectStatusError(response, 405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers 405 with Allow in the admin envelope for a wrong method on an admin route', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/admin/v1/shops', headers: t.adminHeaders });
    expect(expectAdminError(response, 405, 'METHOD_NOT_ALLOWED')).toBe('Method DELETE is not allowed for this endpoint.');
    expect(String(response.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('answers 404, not a parse error, for an unknown route whatever its body', async () => {
    const bad = [
      { 'content-type': 'application/json', payload: '{"broken":' },
      { 'content-type': 'application/xml', payload: '<x/>' },
    ];
    for (const { payload, ...headers } of bad) {
      const response = await t.app.inject({ method: 'POST', url: '/nowhere', headers, payload });
      expectStatusError(response, 404, 'No endpoint exists at this path.');
    }
  });
});

describe('404 and 405 in the app as built', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 405 in the status envelope for a wrong method on a route outside /admin/', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/health' });
    expectStatusError(response, 405, 'Method POST is not allowed for this endpoint.');
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers 404 in the status envelope for an unknown path', async () => {
    expectStatusError(await t.app.inject({ method: 'GET', url: '/nothing-here' }), 404);
  });
});
