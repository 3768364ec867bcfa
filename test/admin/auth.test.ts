import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { expectAdminError } from './admin-assertions.js';

describe('admin token on /admin/v1', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ shopId } = await createShopFixture(t.app.services));
  });
  afterAll(async () => {
    await t.close();
  });

  const routes = () =>
    [
      { method: 'POST', url: '/admin/v1/shops', payload: { name: 'Intruder' } },
      { method: 'GET', url: '/admin/v1/shops' },
      { method: 'GET', url: `/admin/v1/shops/${shopId}` },
      { method: 'PATCH', url: `/admin/v1/shops/${shopId}`, payload: { active: false } },
      { method: 'POST', url: `/admin/v1/shops/${shopId}/secret` },
      { method: 'POST', url: `/admin/v1/shops/${shopId}/custom-events`, payload: { code: 'x' } },
      { method: 'GET', url: `/admin/v1/shops/${shopId}/custom-events` },
      { method: 'DELETE', url: `/admin/v1/shops/${shopId}/custom-events/x` },
    ] as const;

  const badHeaders: ReadonlyArray<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['an empty Authorization header', { authorization: '' }],
    ['a wrong token', { authorization: 'Bearer wrong-token-0123456789' }],
    ['the token with a Basic scheme', { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
    ['the bare token without a scheme', { authorization: TEST_ADMIN_TOKEN }],
    ['Bearer without a token', { authorization: 'Bearer ' }],
    ['the token with a suffix', { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` }],
  ];

  it.each(badHeaders)('answers 401 UNAUTHORIZED on every route with %s, changing nothing', async (_label, headers) => {
    for (const route of routes()) {
      const response = await t.app.inject({ ...route, headers });
      expectAdminError(response, 401, 'UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="patron-admin"');
    }
    const shop = await t.app.services.shops.requireShop(shopId);
    expect(shop.active).toBe(true);
    expect((await t.app.services.shops.listShops()).map((s) => s.name)).not.toContain('Intruder');
  });

  it('says which part of the header is wrong', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/admin/v1/shops' });
    expect(expectAdminError(missing, 401, 'UNAUTHORIZED')).toMatch(/required/);
    const scheme = await t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: { authorization: 'Basic abc' } });
    expect(expectAdminError(scheme, 401, 'UNAUTHORIZED')).toMatch(/Bearer/);
    const wrong = await t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: { authorization: 'Bearer abc' } });
    expect(expectAdminError(wrong, 401, 'UNAUTHORIZED')).toMatch(/not valid/);
  });

  it('checks the token before reading the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expectAdminError(response, 401, 'UNAUTHORIZED');
  });

  it('accepts the scheme name in any case', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/shops',
      headers: { authorization: `bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('accepts a token generated on first start when no environment token is set', async () => {
    const other = await createTestApp({ env: { PATRON_ADMIN_TOKEN: '' } });
    try {
      const generated = await other.app.services.adminToken.rotate();
      const ok = await other.app.inject({
        method: 'GET',
        url: '/admin/v1/shops',
        headers: { authorization: `Bearer ${generated}` },
      });
      expect(ok.statusCode).toBe(200);
      const envToken = await other.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: other.adminHeaders });
      expectAdminError(envToken, 401, 'UNAUTHORIZED');
    } finally {
      await other.close();
    }
  });
});

describe('a generated admin token (no PATRON_ADMIN_TOKEN)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // createTestApp has already run ensure(), which generated (and dropped) a first token.
    t = await createTestApp({ env: { PATRON_ADMIN_TOKEN: '' } });
    token = await t.app.services.adminToken.rotate();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is accepted, and after a rotation only the new token is accepted by the running app', async () => {
    const list = (bearer: string) =>
      t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: { authorization: `Bearer ${bearer}` } });
    expect((await list(token)).statusCode).toBe(200);

    const rotated = await t.app.services.adminToken.rotate();
    expect((await list(token)).statusCode).toBe(401);
    expect((await list(rotated)).statusCode).toBe(200);
  });

  it('is generated only once: later starts find the stored one', async () => {
    expect(await t.app.services.adminToken.ensure()).toEqual({ kind: 'stored' });
  });
});
