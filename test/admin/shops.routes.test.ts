import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = '0123456789abcdef0123456789abcd';

describe('admin shops routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: t.adminHeaders,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  describe('POST /admin/v1/shops', () => {
    it('creates a shop and shows its secret once, with 201 and the exact shape', async () => {
      const response = await inject('POST', '/admin/v1/shops', {
        name: 'Flower shop',
        currency: 'EUR',
        timezone: 'Asia/Vladivostok',
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        shop_id: expect.stringMatching(/^[0-9a-f]{30}$/),
        shop_secret: expect.any(String),
        name: 'Flower shop',
        currency: 'EUR',
        timezone: 'Asia/Vladivostok',
        active: true,
        restricted: false,
        paid_till: null,
      });
      expect(body.shop_secret.length).toBeGreaterThanOrEqual(32);
      const credentials = await t.app.services.shops.findShopWithCredentials(body.shop_id);
      expect(t.app.services.shops.verifySecret(credentials!, body.shop_secret)).toBe(true);
    });

    it('defaults to RUB and Europe/Moscow', async () => {
      const response = await inject('POST', '/admin/v1/shops', { name: 'Defaults' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ currency: 'RUB', timezone: 'Europe/Moscow' });
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'Shop', currency: 'rub' }, 'currency'],
      [{ name: 'Shop', currency: 643 }, 'currency'],
      [{ name: 'Shop', timezone: 'Europe/Atlantis' }, 'timezone'],
      [{ name: 'Shop', shop_id: 'a'.repeat(30) }, 'shop_id'],
    ])('refuses %j with 422 naming `%s`', async (payload, field) => {
      const before = (await t.app.services.shops.listShops()).length;
      const response = await inject('POST', '/admin/v1/shops', payload);
      expect(expectAdminError(response, 422, 'VALIDATION_FAILED')).toContain(`\`${field}\``);
      expect(await t.app.services.shops.listShops()).toHaveLength(before);
    });

    it('refuses a body that is not an object with 422', async () => {
      const response = await inject('POST', '/admin/v1/shops', ['Shop']);
      expect(expectAdminError(response, 422, 'VALIDATION_FAILED')).toMatch(/^Request body must be a JSON object\.$/);
    });
  });

  describe('GET /admin/v1/shops and /admin/v1/shops/{shop_id}', () => {
    it('lists shops without their secrets', async () => {
      const { shopId, secret } = await createShopFixture(t.app.services, { currency: 'USD', timezone: 'UTC' });
      const response = await inject('GET', '/admin/v1/shops');
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(secret);
      const body = response.json<{ shops: Record<string, unknown>[] }>();
      expect(Object.keys(body)).toEqual(['shops']);
      expect(body.shops.find((s) => s.shop_id === shopId)).toEqual({
        shop_id: shopId,
        name: expect.any(String),
        currency: 'USD',
        timezone: 'UTC',
        active: true,
        restricted: false,
        paid_till: null,
      });
      for (const shop of body.shops) expect(shop).not.toHaveProperty('shop_secret');
    });

    it('reads one shop without its secret', async () => {
      const { shopId, secret, shop } = await createShopFixture(t.app.services);
      const response = await inject('GET', `/admin/v1/shops/${shopId}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(secret);
      expect(response.json()).toEqual({
        shop_id: shopId,
        name: shop.name,
        currency: 'RUB',
        timezone: 'Europe/Moscow',
        active: true,
        restricted: false,
        paid_till: null,
      });
    });

    it.each([UNKNOWN_SHOP, 'not-a-shop-id'])('answers 404 NOT_FOUND for the shop %s', async (id) => {
      expectAdminError(await inject('GET', `/admin/v1/shops/${id}`), 404, 'NOT_FOUND');
    });
  });

  describe('PATCH /admin/v1/shops/{shop_id}', () => {
    it('changes the given fields and answers the whole shop', async () => {
      const { shopId } = await createShopFixture(t.app.services);
      const response = await inject('PATCH', `/admin/v1/shops/${shopId}`, {
        active: false,
        restricted: true,
        paid_till: '2026-03-31',
        name: 'Renamed',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        shop_id: shopId,
        name: 'Renamed',
        currency: 'RUB',
        timezone: 'Europe/Moscow',
        active: false,
        restricted: true,
        paid_till: '2026-03-31',
      });
      expect(await t.app.services.shops.requireShop(shopId)).toMatchObject({ active: false, paidTill: '2026-03-31' });
    });

    it('clears paid_till with null and leaves other fields alone', async () => {
      const { shopId } = await createShopFixture(t.app.services);
      await inject('PATCH', `/admin/v1/shops/${shopId}`, { paid_till: '2026-03-31', restricted: true });
      const response = await inject('PATCH', `/admin/v1/shops/${shopId}`, { paid_till: null });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ paid_till: null, restricted: true, active: true });
    });

    it('stops the shop serving once paid_till has passed in its time zone', async () => {
      const { shopId } = await createShopFixture(t.app.services);
      t.clock.set(Date.UTC(2026, 0, 15, 22, 30)); // already 16 January in Moscow
      await inject('PATCH', `/admin/v1/shops/${shopId}`, { paid_till: '2026-01-15' });
      const shop = await t.app.services.shops.requireShop(shopId);
      expect(t.app.services.shops.servingState(shop)).toBe('unpaid');
    });

    it.each([
      [{ active: 'yes' }, 'active', /must be a boolean/],
      [{ restricted: 1 }, 'restricted', /must be a boolean/],
      [{ paid_till: '2023-02-30' }, 'paid_till', /must be a date YYYY-MM-DD or null/],
      [{ paid_till: '31.12.2026' }, 'paid_till', /must be a date YYYY-MM-DD or null/],
      [{ paid_till: 20261231 }, 'paid_till', /must be a string or null/],
      [{ name: '' }, 'name', /must not be empty/],
      [{ currency: 'USD' }, 'currency', /is not allowed/],
      [{ secret: 'mine' }, 'secret', /is not allowed/],
    ])('refuses %j with 422 naming `%s`', async (payload, field, wording) => {
      const { shopId, shop } = await createShopFixture(t.app.services);
      const message = expectAdminError(await inject('PATCH', `/admin/v1/shops/${shopId}`, payload), 422, 'VALIDATION_FAILED');
      expect(message).toContain(`Field \`${field}\``);
      expect(message).toMatch(wording);
      expect(await t.app.services.shops.requireShop(shopId)).toEqual(shop);
    });

    it('answers 404 NOT_FOUND for an unknown shop', async () => {
      expectAdminError(await inject('PATCH', `/admin/v1/shops/${UNKNOWN_SHOP}`, { active: false }), 404, 'NOT_FOUND');
    });
  });

  describe('POST /admin/v1/shops/{shop_id}/secret', () => {
    it('answers a new secret and the old one stops working at once', async () => {
      const { shopId, secret: oldSecret } = await createShopFixture(t.app.services);
      const response = await inject('POST', `/admin/v1/shops/${shopId}/secret`);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ shop_secret: string }>();
      expect(body).toEqual({ shop_secret: expect.any(String) });
      expect(body.shop_secret).not.toBe(oldSecret);
      expect(body.shop_secret.length).toBeGreaterThanOrEqual(32);

      const credentials = (await t.app.services.shops.findShopWithCredentials(shopId))!;
      expect(t.app.services.shops.verifySecret(credentials, oldSecret)).toBe(false);
      expect(t.app.services.shops.verifySecret(credentials, body.shop_secret)).toBe(true);
    });

    it('accepts a JSON content type with an empty body', async () => {
      const { shopId } = await createShopFixture(t.app.services);
      const response = await t.app.inject({
        method: 'POST',
        url: `/admin/v1/shops/${shopId}/secret`,
        headers: { ...t.adminHeaders, 'content-type': 'application/json' },
        payload: '',
      });
      expect(response.statusCode).toBe(200);
    });

    it('answers 404 NOT_FOUND for an unknown shop', async () => {
      expectAdminError(await inject('POST', `/admin/v1/shops/${UNKNOWN_SHOP}/secret`), 404, 'NOT_FOUND');
    });
  });
});
