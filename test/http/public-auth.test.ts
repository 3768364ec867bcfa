import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createShopFixture, type ShopFixture } from '../helpers/factories.js';
import { createPublicTestApp, expectStatusError, expectSuccessError, multipartRequest } from './public-test-app.js';
import { testRoutes } from './test-routes.js';

const DAY = 24 * 60 * 60 * 1000;

describe('public credential checks', () => {
  let t: TestApp;
  let shop: ShopFixture;

  beforeAll(async () => {
    t = await createPublicTestApp([testRoutes]);
    shop = await createShopFixture(t.app.services);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  describe('shop_id', () => {
    it('answers 401 when shop_id is absent, in each envelope', async () => {
      expectStatusError(await get('/test/shop'), 401, 'Parameter `shop_id` is required.');
      expectSuccessError(await get('/test/secret-success'), 401, 'Parameter `shop_id` is required.');
    });

    it('treats shop_id=null and a JSON null shop_id as absent (401, not 422)', async () => {
      expectStatusError(await get('/test/shop?shop_id=null'), 401);
      const json = await t.app.inject({ method: 'POST', url: '/test/shop', payload: { shop_id: null } });
      expectStatusError(json, 401);
    });

    it.each([
      ['empty', ''],
      ['29 hex characters', 'a'.repeat(29)],
      ['31 hex characters', 'a'.repeat(31)],
      ['30 characters that are not hex', 'g'.repeat(30)],
    ])('answers 422 for a shop_id that is %s', async (_label, value) => {
      const response = await get(`/test/shop?shop_id=${value}`);
      expectStatusError(response, 422, 'Parameter `shop_id` must be 30 hexadecimal characters.');
    });

    it('answers 422 for a shop_id that is not a string', async () => {
      expectStatusError(await get(`/test/shop?shop_id[]=${shop.shopId}`), 422);
      const json = await t.app.inject({ method: 'POST', url: '/test/shop', payload: { shop_id: 12345 } });
      expectStatusError(json, 422, 'Parameter `shop_id` must be 30 hexadecimal characters.');
    });

    it('answers 404 Shop not found for a well-formed unknown shop_id', async () => {
      expectStatusError(await get(`/test/shop?shop_id=${'0'.repeat(30)}`), 404, 'Shop not found');
      expectSuccessError(await get(`/test/secret-success?shop_id=${'0'.repeat(30)}&shop_secret=x`), 404, 'Shop not found');
    });

    it('resolves the shop from the query string, a JSON body, a form and a multipart form', async () => {
      const expected = { status: 'success', payload: { shop_id: shop.shopId } };
      expect((await get(`/test/shop?shop_id=${shop.shopId}`)).json()).toEqual(expected);
      const json = await t.app.inject({ method: 'POST', url: '/test/shop', payload: { shop_id: shop.shopId } });
      expect(json.json()).toEqual(expected);
      const form = await t.app.inject({
        method: 'POST',
        url: '/test/shop',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `shop_id=${shop.shopId}`,
      });
      expect(form.json()).toEqual(expected);
      const multipart = await t.app.inject({ method: 'POST', url: '/test/shop', ...multipartRequest([['shop_id', shop.shopId]]) });
      expect(multipart.json()).toEqual(expected);
    });

    it('accepts an upper-case shop_id as the same shop', async () => {
      const response = await get(`/test/shop?shop_id=${shop.shopId.toUpperCase()}`);
      expect(response.json()).toEqual({ status: 'success', payload: { shop_id: shop.shopId } });
    });
  });

  describe('shop_secret', () => {
    it('answers 401 Invalid secret key on a status-family route when the secret is missing or wrong', async () => {
      for (const query of ['', '&shop_secret=', '&shop_secret=null', '&shop_secret=wrong', `&shop_secret=${shop.secret}x`]) {
        expectStatusError(await get(`/test/secret-status?shop_id=${shop.shopId}${query}`), 401, 'Invalid secret key');
      }
    });

    it('answers 401 API secret is not correct on a success-family route when the secret is missing or wrong', async () => {
      for (const query of ['', '&shop_secret=wrong']) {
        expectSuccessError(await get(`/test/secret-success?shop_id=${shop.shopId}${query}`), 401, 'API secret is not correct');
      }
      const json = await t.app.inject({
        method: 'POST',
        url: '/test/secret-success',
        payload: { shop_id: shop.shopId, shop_secret: ['not', 'a', 'string'] },
      });
      expectSuccessError(json, 401, 'API secret is not correct');
    });

    it('answers a bare route’s wrong secret in the status envelope', async () => {
      expectStatusError(await get(`/test/secret-bare?shop_id=${shop.shopId}&shop_secret=wrong`), 401, 'Invalid secret key');
    });

    it('serves the request with the right secret', async () => {
      const status = await get(`/test/secret-status?shop_id=${shop.shopId}&shop_secret=${encodeURIComponent(shop.secret)}`);
      expect(status.json()).toEqual({ status: 'success', payload: { shop_id: shop.shopId } });
      const success = await t.app.inject({
        method: 'POST',
        url: '/test/secret-success',
        payload: { shop_id: shop.shopId, shop_secret: shop.secret },
      });
      expect(success.json()).toEqual({ success: true, payload: { shop_id: shop.shopId } });
    });

    it('stops accepting the old secret once it is rotated', async () => {
      const other = await createShopFixture(t.app.services);
      const fresh = await t.app.services.shops.rotateSecret(other.shopId);
      const old = await get(`/test/secret-status?shop_id=${other.shopId}&shop_secret=${encodeURIComponent(other.secret)}`);
      expectStatusError(old, 401, 'Invalid secret key');
      const now = await get(`/test/secret-status?shop_id=${other.shopId}&shop_secret=${encodeURIComponent(fresh)}`);
      expect(now.statusCode).toBe(200);
    });
  });

  describe('shop state', () => {
    it('answers 403 for an inactive shop', async () => {
      const s = await createShopFixture(t.app.services);
      await t.app.services.shops.updateShop(s.shopId, { active: false });
      expectStatusError(await get(`/test/shop?shop_id=${s.shopId}`), 403, 'Shop is not active.');
    });

    it('answers 403 for a restricted shop, in the success envelope too', async () => {
      const s = await createShopFixture(t.app.services);
      await t.app.services.shops.updateShop(s.shopId, { restricted: true });
      expectStatusError(await get(`/test/shop?shop_id=${s.shopId}`), 403, 'Shop is restricted.');
      const success = await get(`/test/secret-success?shop_id=${s.shopId}&shop_secret=${encodeURIComponent(s.secret)}`);
      expectSuccessError(success, 403, 'Shop is restricted.');
    });

    it('serves a shop through its paid_till day and answers 403 the day after', async () => {
      const s = await createShopFixture(t.app.services);
      // The test clock is 2026-01-15 12:00 UTC, 15:00 in the shop's Europe/Moscow.
      await t.app.services.shops.updateShop(s.shopId, { paidTill: '2026-01-15' });
      expect((await get(`/test/shop?shop_id=${s.shopId}`)).statusCode).toBe(200);
      t.clock.advance(DAY);
      try {
        expectStatusError(await get(`/test/shop?shop_id=${s.shopId}`), 403, 'Shop payment has expired.');
      } finally {
        t.clock.advance(-DAY);
      }
    });

    it('checks the secret before the shop state, so an unauthenticated caller learns nothing about it', async () => {
      const s = await createShopFixture(t.app.services);
      await t.app.services.shops.updateShop(s.shopId, { active: false });
      expectStatusError(await get(`/test/secret-status?shop_id=${s.shopId}&shop_secret=wrong`), 401, 'Invalid secret key');
    });

    it('lets a route with deferShopState check its own parameters before the shop state', async () => {
      const s = await createShopFixture(t.app.services);
      await t.app.services.shops.updateShop(s.shopId, { active: false });
      const post = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/test/deferred', payload });
      expectStatusError(await post({ did: 'abcde12345' }), 401, 'Parameter `shop_id` is required.');
      expectStatusError(await post({ shop_id: '0'.repeat(30), did: 'abcde12345' }), 404, 'Shop not found');
      expectStatusError(await post({ shop_id: s.shopId }), 401, 'Device ID is not valid');
      expectStatusError(await post({ shop_id: s.shopId, did: 'INVALID_ID' }), 422, 'Parameter `did` must be 10 letters or digits.');
      expectStatusError(await post({ shop_id: s.shopId, did: 'abcde12345' }), 403, 'Shop is not active.');
      await t.app.services.shops.updateShop(s.shopId, { active: true });
      expect((await post({ shop_id: s.shopId, did: 'abcde12345' })).json()).toEqual({ status: 'success' });
    });
  });
});
