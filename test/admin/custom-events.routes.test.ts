import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

describe('admin custom event code routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });

  it('creates codes with 201, lists them by code and deletes one with 204', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const base = `/admin/v1/shops/${shopId}/custom-events`;

    const named = await inject('POST', base, { code: 'newsletter_signup', name: 'Newsletter sign-up' });
    expect(named.statusCode).toBe(201);
    expect(named.json()).toEqual({ code: 'newsletter_signup', name: 'Newsletter sign-up' });

    const unnamed = await inject('POST', base, { code: 'app_open_2' });
    expect(unnamed.statusCode).toBe(201);
    expect(unnamed.json()).toEqual({ code: 'app_open_2', name: null });

    const list = await inject('GET', base);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      custom_events: [
        { code: 'app_open_2', name: null },
        { code: 'newsletter_signup', name: 'Newsletter sign-up' },
      ],
    });

    const deleted = await inject('DELETE', `${base}/newsletter_signup`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await t.app.services.shops.hasCustomEvent(shopId, 'newsletter_signup')).toBe(false);
    expect((await inject('GET', base)).json()).toEqual({ custom_events: [{ code: 'app_open_2', name: null }] });
  });

  it('answers an empty list for a shop without codes', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await inject('GET', `/admin/v1/shops/${shopId}/custom-events`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ custom_events: [] });
  });

  it('answers 409 CONFLICT for a code the shop already has', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const base = `/admin/v1/shops/${shopId}/custom-events`;
    expect((await inject('POST', base, { code: 'purchase_gift' })).statusCode).toBe(201);
    const message = expectAdminError(await inject('POST', base, { code: 'purchase_gift', name: 'Again' }), 409, 'CONFLICT');
    expect(message).toContain('purchase_gift');
  });

  it('keeps a code to its shop: another shop neither sees nor deletes it, and may create its own', async () => {
    const a = await createShopFixture(t.app.services);
    const b = await createShopFixture(t.app.services);
    await inject('POST', `/admin/v1/shops/${a.shopId}/custom-events`, { code: 'vip_visit' });

    expect((await inject('GET', `/admin/v1/shops/${b.shopId}/custom-events`)).json()).toEqual({ custom_events: [] });
    expectAdminError(await inject('DELETE', `/admin/v1/shops/${b.shopId}/custom-events/vip_visit`), 404, 'NOT_FOUND');
    expect((await inject('POST', `/admin/v1/shops/${b.shopId}/custom-events`, { code: 'vip_visit' })).statusCode).toBe(201);
    expect(await t.app.services.shops.hasCustomEvent(a.shopId, 'vip_visit')).toBe(true);
  });

  it.each([
    [{ code: 'VIP' }, 'code', /must match the pattern/],
    [{ code: 'vip-visit' }, 'code', /must match the pattern/],
    [{ code: '' }, 'code', /must not be empty/],
    [{ code: 'a'.repeat(65) }, 'code', /at most 64 characters/],
    [{ code: 7 }, 'code', /must be a string/],
    [{}, 'code', /is required/],
    [{ code: 'ok', name: 5 }, 'name', /must be a string or null/],
    [{ code: 'ok', label: 'x' }, 'label', /is not allowed/],
  ])('refuses %j with 422 naming `%s`', async (payload, field, wording) => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await inject('POST', `/admin/v1/shops/${shopId}/custom-events`, payload);
    const message = expectAdminError(response, 422, 'VALIDATION_FAILED');
    expect(message).toContain(`Field \`${field}\``);
    expect(message).toMatch(wording);
    expect(await t.app.services.shops.listCustomEvents(shopId)).toEqual([]);
  });

  it('answers 404 NOT_FOUND for an unknown shop on every route', async () => {
    const base = `/admin/v1/shops/${UNKNOWN_SHOP}/custom-events`;
    expectAdminError(await inject('POST', base, { code: 'x' }), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', base), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${base}/x`), 404, 'NOT_FOUND');
  });

  it('answers 404 NOT_FOUND when deleting a code the shop does not have', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await inject('DELETE', `/admin/v1/shops/${shopId}/custom-events/never_made`), 404, 'NOT_FOUND');
    expect(message).toContain('never_made');
  });
});
