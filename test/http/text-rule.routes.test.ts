import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAdminError } from '../admin/admin-assertions.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../helpers/factories.js';
import { multipartRequest } from './public-test-app.js';

/**
 * The text rule (docs/input.md) through the real routes, on both databases: PostgreSQL
 * is where a NUL used to reach a query and fail it with 500.
 */

const NUL = (subject: string) => `${subject} contains a NUL character (U+0000), which is not allowed.`;

function expectPublicError(response: LightMyRequestResponse, status: number, message: string): void {
  expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
    status,
    body: { status: 'error', payload: { message } },
  });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
}

describe.each(TEST_DIALECTS)('the text rule on %s', (dialect) => {
  let t: TestApp;
  let shop: ShopFixture;
  let did: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shop = await createShopFixture(t.app.services);
    did = (await t.app.inject({ method: 'GET', url: `/init?shop_id=${shop.shopId}` })).json<{ did: string }>().did;
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (request: InjectOptions) => t.app.inject(request);

  describe('public routes answer 422 in their envelope, naming the parameter', () => {
    it('GET /products/get with a NUL in item_id', async () => {
      const response = await inject({ method: 'GET', url: `/products/get?shop_id=${shop.shopId}&item_id=x%00y` });
      expectPublicError(response, 422, NUL('Parameter `item_id`'));
    });

    it('GET /search with a NUL in search_query, without any secret', async () => {
      const response = await inject({ method: 'GET', url: `/search?shop_id=${shop.shopId}&type=full_search&search_query=a%00` });
      expectPublicError(response, 422, NUL('Parameter `search_query`'));
    });

    it('POST /push with "stream":"a\\u0000b", before the credentials are looked up', async () => {
      const payload = { shop_id: shop.shopId, did, event: 'view', items: [{ id: 'p1' }], stream: 'a\u0000b' };
      expectPublicError(await inject({ method: 'POST', url: '/push', payload }), 422, NUL('Parameter `stream`'));
      const unknownShop = { ...payload, shop_id: 'f'.repeat(30) };
      expectPublicError(await inject({ method: 'POST', url: '/push', payload: unknownShop }), 422, NUL('Parameter `stream`'));
    });

    it('a NUL in a JSON object key, a nested value and a multipart field', async () => {
      const key = await inject({ method: 'POST', url: '/push', payload: { shop_id: shop.shopId, did, 'x\u0000': 1 } });
      expectPublicError(key, 422, NUL('A parameter name'));
      const nested = await inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: shop.shopId, did, event: 'view', items: [{ id: 'p1', fashion_size: ['a\u0000'] }] },
      });
      expectPublicError(nested, 422, NUL('Parameter `items[0][fashion_size][0]`'));
      const { payload, headers } = multipartRequest([
        ['shop_id', shop.shopId],
        ['did', did],
        ['event', 'a\u0000'],
      ]);
      expectPublicError(await inject({ method: 'POST', url: '/push', payload, headers }), 422, NUL('Parameter `event`'));
    });

    it('a lone surrogate in JSON and an escape that is not UTF-8 in the query string', async () => {
      const surrogate = await inject({
        method: 'POST',
        url: '/push',
        headers: { 'content-type': 'application/json' },
        payload: `{"shop_id":"${shop.shopId}","did":"${did}","event":"view","stream":"\\ud800"}`,
      });
      expectPublicError(surrogate, 422, 'Parameter `stream` is not valid UTF-8 text, which is not allowed.');
      const escape = await inject({ method: 'GET', url: `/search?shop_id=${shop.shopId}&type=full_search&search_query=%C3%28` });
      expectPublicError(escape, 422, 'Parameter `search_query` is not valid UTF-8 text, which is not allowed.');
    });
  });

  describe('POST /import/audience', () => {
    it('takes records holding a NUL, and the import skips them with their reason while the rest are imported', async () => {
      const audience = Array.from({ length: 1000 }, (_, i) => ({ email: `c${i}@example.org`, first_name: `N${i}` }));
      audience[500] = { email: 'c500@example.org', first_name: 'A\u0000' };
      const payload = { shop_id: shop.shopId, shop_secret: shop.secret, audience };
      const response = await inject({ method: 'POST', url: '/import/audience', payload });
      expect(response.json()).toEqual({ status: 'success' });
      const [queued] = await t.app.services.audience.listImports(shop.shopId);
      await t.app.services.audience.runImport({ shopId: shop.shopId, importId: queued!.id });
      const [done] = await t.app.services.audience.listImports(shop.shopId);
      expect(done).toMatchObject({ status: 'done', imported: 999, skipped: 1 });
      expect(done!.log.errors).toEqual([{ index: 500, reason: 'invalid_text', message: 'first_name contains a NUL character (U+0000)' }]);
    });

    it('refuses a NUL in its other parameters, and a body that is not UTF-8, with 422', async () => {
      const withSegment = { shop_id: shop.shopId, shop_secret: shop.secret, segment_id: '1\u0000', audience: [] };
      expectPublicError(
        await inject({ method: 'POST', url: '/import/audience', payload: withSegment }),
        422,
        NUL('Parameter `segment_id`'),
      );
      const bytes = Buffer.concat([
        Buffer.from(`{"shop_id":"${shop.shopId}","shop_secret":"${shop.secret}","audience":[{"email":"a@example.org","first_name":"`),
        Buffer.from([0xff]),
        Buffer.from('"}]}'),
      ]);
      const response = await inject({
        method: 'POST',
        url: '/import/audience',
        headers: { 'content-type': 'application/json' },
        payload: bytes,
      });
      expectPublicError(response, 422, 'The request body is not valid UTF-8 text, which is not allowed.');
    });
  });

  describe('admin routes answer 422 in the admin envelope, naming the field', () => {
    it('a NUL in a shop name, created or renamed', async () => {
      const created = await inject({ method: 'POST', url: '/admin/v1/shops', headers: t.adminHeaders, payload: { name: 'a\u0000' } });
      expect(expectAdminError(created, 422, 'VALIDATION_FAILED')).toBe(NUL('Field `name`'));
      const renamed = await inject({
        method: 'PATCH',
        url: `/admin/v1/shops/${shop.shopId}`,
        headers: t.adminHeaders,
        payload: { name: 'b\u0000' },
      });
      expect(expectAdminError(renamed, 422, 'VALIDATION_FAILED')).toBe(NUL('Field `name`'));
      expect((await t.app.services.shops.getShop(shop.shopId))?.name).toBe(shop.shop.name);
    });

    it('a NUL in a path parameter or a query parameter', async () => {
      const path = await inject({ method: 'GET', url: '/admin/v1/shops/a%00b', headers: t.adminHeaders });
      expect(expectAdminError(path, 422, 'VALIDATION_FAILED')).toBe(NUL('Path parameter `shop_id`'));
      const query = await inject({
        method: 'GET',
        url: `/admin/v1/shops/${shop.shopId}/profiles?loyalty_id=a%00`,
        headers: t.adminHeaders,
      });
      expect(expectAdminError(query, 422, 'VALIDATION_FAILED')).toBe(NUL('Query parameter `loyalty_id`'));
    });

    it('bytes that are not UTF-8 in a JSON body, naming the field', async () => {
      const payload = Buffer.concat([Buffer.from('{"name":"Sh'), Buffer.from([0xc3, 0x28]), Buffer.from('op"}')]);
      const response = await inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: { ...t.adminHeaders, 'content-type': 'application/json' },
        payload,
      });
      expect(expectAdminError(response, 422, 'VALIDATION_FAILED')).toBe('Field `name` is not valid UTF-8 text, which is not allowed.');
    });
  });

  it('answers a path the router cannot decode with 400 in the scope’s envelope, without echoing it', async () => {
    const admin = await inject({ method: 'GET', url: '/admin/v1/shops/%ff', headers: t.adminHeaders });
    expect(expectAdminError(admin, 400, 'BAD_REQUEST')).toBe(
      'The request path is not valid: a percent-escape in it does not spell UTF-8 text.',
    );
    const publicPath = await inject({ method: 'GET', url: '/images/%ff/a/120.jpg' });
    expectPublicError(publicPath, 400, 'The request path is not valid: a percent-escape in it does not spell UTF-8 text.');
  });
});
