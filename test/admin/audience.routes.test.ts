import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

/**
 * admin-api.md "Segments", "Import logs" and "Profiles (read)" as far as audience import
 * touches them, and the custom property codes imports are checked against; through the
 * whole app, with the import run as the worker runs it.
 */

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

describe.each(TEST_DIALECTS)('admin audience routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });

  /** POST /import/audience, then the job, as the worker would run it. */
  async function importAudience(shop: ShopFixture, body: Record<string, unknown>): Promise<void> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/import/audience',
      payload: { shop_id: shop.shopId, shop_secret: shop.secret, ...body },
    });
    expect(response.json()).toEqual({ status: 'success' });
    const [latest] = await t.app.services.audience.listImports(shop.shopId);
    await t.app.services.audience.runImport({ shopId: shop.shopId, importId: latest!.id });
  }

  describe('segments', () => {
    it('creates a segment with 201 and an integer id, and reads it with its size', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/segments`;
      const created = await inject('POST', base, { name: 'VIP customers' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ id: 1, name: 'VIP customers' });
      const second = await inject('POST', base, { name: 'Lapsed' });
      expect(second.json()).toEqual({ id: 2, name: 'Lapsed' });

      expect((await inject('GET', `${base}/1`)).json()).toEqual({ id: 1, name: 'VIP customers', size: 0 });
      await importAudience(shop, {
        audience: [{ email: 'a@example.org' }, { phone: '79000000001' }, { first_name: 'no key' }],
        segment_id: 1,
      });
      expect((await inject('GET', `${base}/1`)).json()).toEqual({ id: 1, name: 'VIP customers', size: 2 });
      expect((await inject('GET', base)).json()).toEqual({
        segments: [
          { id: 1, name: 'VIP customers', size: 2 },
          { id: 2, name: 'Lapsed', size: 0 },
        ],
      });
    });

    it('numbers segments per shop', async () => {
      const a = await createShopFixture(t.app.services);
      const b = await createShopFixture(t.app.services);
      expect((await inject('POST', `/admin/v1/shops/${a.shopId}/segments`, { name: 'A' })).json()).toEqual({ id: 1, name: 'A' });
      expect((await inject('POST', `/admin/v1/shops/${b.shopId}/segments`, { name: 'B' })).json()).toEqual({ id: 1, name: 'B' });
      expectAdminError(await inject('GET', `/admin/v1/shops/${b.shopId}/segments/2`), 404, 'NOT_FOUND');
    });

    it('lists a profile’s segments in the profiles read API', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/segments`;
      await inject('POST', base, { name: 'One' });
      await inject('POST', base, { name: 'Two' });
      await importAudience(shop, { audience: [{ email: 'kim@example.org' }], segment_id: 2 });
      await importAudience(shop, { audience: [{ email: 'KIM@example.org' }], segment_id: 1 });
      const response = await inject('GET', `/admin/v1/shops/${shop.shopId}/profiles?email=kim%40example.org`);
      expect(response.json()).toMatchObject({ profiles: [{ email: 'kim@example.org', segments: [1, 2] }] });
    });

    it('deletes a segment with 204; its profiles stay', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/segments`;
      await inject('POST', base, { name: 'Temp' });
      await importAudience(shop, { audience: [{ email: 'stay@example.org' }], segment_id: 1 });
      const deleted = await inject('DELETE', `${base}/1`);
      expect(deleted.statusCode).toBe(204);
      expectAdminError(await inject('GET', `${base}/1`), 404, 'NOT_FOUND');
      expectAdminError(await inject('DELETE', `${base}/1`), 404, 'NOT_FOUND');
      expect((await inject('GET', `/admin/v1/shops/${shop.shopId}/profiles?email=stay%40example.org`)).json()).toMatchObject({
        profiles: [{ email: 'stay@example.org', segments: [] }],
      });
    });

    it('refuses a bad name with 422, a malformed or unknown id and an unknown shop with 404', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/segments`;
      expect(expectAdminError(await inject('POST', base, { name: '' }), 422, 'VALIDATION_FAILED')).toContain('`name`');
      expect(expectAdminError(await inject('POST', base, { name: '   ' }), 422, 'VALIDATION_FAILED')).toContain('`name`');
      expectAdminError(await inject('POST', base, {}), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('POST', base, { name: 'x'.repeat(201) }), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('GET', `${base}/abc`), 404, 'NOT_FOUND');
      expectAdminError(await inject('GET', `${base}/0`), 404, 'NOT_FOUND');
      expectAdminError(await inject('GET', `${base}/99`), 404, 'NOT_FOUND');
      expectAdminError(await inject('POST', `/admin/v1/shops/${UNKNOWN_SHOP}/segments`, { name: 'X' }), 404, 'NOT_FOUND');
      expectAdminError(await inject('GET', `/admin/v1/shops/${UNKNOWN_SHOP}/segments`), 404, 'NOT_FOUND');
    });
  });

  describe('custom properties', () => {
    it('creates, lists and deletes property codes', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/custom-properties`;
      const created = await inject('POST', base, { code: 'shoe_size', type: 'integer', name: 'Shoe size' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ code: 'shoe_size', type: 'integer', name: 'Shoe size' });
      await inject('POST', base, { code: 'anniversary', type: 'date' });
      expect((await inject('GET', base)).json()).toEqual({
        custom_properties: [
          { code: 'anniversary', type: 'date', name: null },
          { code: 'shoe_size', type: 'integer', name: 'Shoe size' },
        ],
      });
      expect((await inject('DELETE', `${base}/anniversary`)).statusCode).toBe(204);
      expectAdminError(await inject('DELETE', `${base}/anniversary`), 404, 'NOT_FOUND');
    });

    it('refuses a duplicate code with 409, a field name of the record, a bad code or type with 422', async () => {
      const shop = await createShopFixture(t.app.services);
      const base = `/admin/v1/shops/${shop.shopId}/custom-properties`;
      await inject('POST', base, { code: 'tier', type: 'string' });
      expectAdminError(await inject('POST', base, { code: 'tier', type: 'integer' }), 409, 'CONFLICT');
      expect(expectAdminError(await inject('POST', base, { code: 'first_name', type: 'string' }), 422, 'VALIDATION_FAILED')).toContain(
        '`code`',
      );
      expectAdminError(await inject('POST', base, { code: 'Bad-Code', type: 'string' }), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('POST', base, { code: '__proto__', type: 'string' }), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('POST', base, { code: 'colour', type: 'colour' }), 422, 'VALIDATION_FAILED');
    });
  });

  describe('import logs', () => {
    it('answers the imports newest first with counts, skipped records, status and times', async () => {
      const shop = await createShopFixture(t.app.services);
      await t.app.services.customProperties.createProperty(shop.shopId, { code: 'shoe_size', type: 'integer' });
      await importAudience(shop, { audience: [{ email: 'one@example.org' }] });
      t.clock.advance(5000);
      await importAudience(shop, {
        audience: [{ email: 'two@example.org', gender: 'x', shoe_size: 41, colour: 'red' }, { first_name: 'Nobody' }, { phone: 'call me' }],
      });
      // A third, stored but not yet run.
      await t.app.inject({
        method: 'POST',
        url: '/import/audience',
        payload: { shop_id: shop.shopId, shop_secret: shop.secret, audience: [{ email: 'three@example.org' }] },
      });

      const response = await inject('GET', `/admin/v1/shops/${shop.shopId}/imports`);
      expect(response.statusCode).toBe(200);
      const { imports } = response.json<{ imports: Record<string, unknown>[] }>();
      expect(imports.map((i) => [i.id, i.status])).toEqual([
        [3, 'queued'],
        [2, 'done'],
        [1, 'done'],
      ]);
      const now = new Date(t.clock.now()).toISOString();
      expect(imports[0]).toMatchObject({
        kind: 'audience',
        received: 1,
        imported: 0,
        skipped: 0,
        errors: [],
        started_at: null,
        finished_at: null,
      });
      expect(imports[1]).toEqual({
        id: 2,
        kind: 'audience',
        status: 'done',
        received: 3,
        imported: 1,
        skipped: 2,
        errors: [
          { index: 1, reason: 'no_identifier', message: 'none of email, phone, loyalty_id, external_id is given' },
          { index: 2, reason: 'invalid_phone', message: expect.stringMatching(/^phone is not valid/) },
        ],
        started_at: now,
        finished_at: now,
        source: 'api',
        segment_id: null,
        processed: 3,
        profiles_created: 1,
        warnings: [{ index: 0, field: 'gender', message: 'must be m or f' }],
        skipped_reasons: { no_identifier: 1, invalid_phone: 1 },
        dropped_fields: { gender: 1 },
        unknown_properties: { colour: 1 },
        history: [
          { status: 'queued', at: now },
          { status: 'running', at: now },
          { status: 'done', at: now },
        ],
        created_at: now,
      });
      const limited = await inject('GET', `/admin/v1/shops/${shop.shopId}/imports?limit=1`);
      expect(limited.json<{ imports: unknown[] }>().imports).toHaveLength(1);
      // Keyset pages by `before`: each import once, newest first, and the last page says so.
      const all = response.json<{ imports: { id: number }[]; next_before: number | null }>();
      expect(all.next_before).toBeNull();
      const seen: number[] = [];
      let before: number | null = null;
      for (let page = 0; page < 5; page++) {
        const query: string = `limit=2${before === null ? '' : `&before=${before}`}`;
        const body = (await inject('GET', `/admin/v1/shops/${shop.shopId}/imports?${query}`)).json<{
          imports: { id: number }[];
          next_before: number | null;
        }>();
        seen.push(...body.imports.map((i) => i.id));
        before = body.next_before;
        if (before === null) break;
      }
      expect(seen).toEqual(all.imports.map((i) => i.id));
      expect(seen).toHaveLength(3);
    });

    it('answers an empty log, 422 for a bad limit and 404 for an unknown shop', async () => {
      const shop = await createShopFixture(t.app.services);
      expect((await inject('GET', `/admin/v1/shops/${shop.shopId}/imports`)).json()).toEqual({ imports: [], next_before: null });
      expectAdminError(await inject('GET', `/admin/v1/shops/${shop.shopId}/imports?before=0`), 422, 'VALIDATION_FAILED');
      expect(expectAdminError(await inject('GET', `/admin/v1/shops/${shop.shopId}/imports?limit=0`), 422, 'VALIDATION_FAILED')).toContain(
        '`limit`',
      );
      expectAdminError(await inject('GET', `/admin/v1/shops/${shop.shopId}/imports?limit=x`), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('GET', `/admin/v1/shops/${UNKNOWN_SHOP}/imports`), 404, 'NOT_FOUND');
    });
  });
});
