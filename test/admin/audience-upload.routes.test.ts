import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

/** POST /admin/v1/shops/{shop_id}/imports: the admin UI's audience CSV upload, run as the worker runs it. */
describe.each(TEST_DIALECTS)('admin audience CSV upload on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (shopId: string, csv: string, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopId}/imports${query}`,
      headers: { ...t.adminHeaders, 'content-type': 'text/csv' },
      payload: csv,
    });

  it('stores a CSV file as a queued import that imports its rows and reports the skipped ones with reasons', async () => {
    const shop = await createShopFixture(t.app.services);
    const segment = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shop.shopId}/segments`,
      headers: t.adminHeaders,
      payload: { name: 'Upload' },
    });
    const segmentId = segment.json<{ id: number }>().id;
    const csv = '\uFEFFemail;first_name;phone\r\na@example.org;Ann;\r\n;No key;\r\nb@example.org;"Bob; Jr";\r\n';
    const response = await upload(shop.shopId, csv, `?segment_id=${segmentId}`);
    expect(response.statusCode).toBe(202);
    const queued = response.json<{ id: number; status: string; received: number; segment_id: number }>();
    expect(queued).toMatchObject({ status: 'queued', received: 3, segment_id: segmentId, imported: 0 });

    await t.app.services.audience.runImport({ shopId: shop.shopId, importId: queued.id });
    const log = (await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.shopId}/imports`, headers: t.adminHeaders })).json<{
      imports: { id: number; status: string; imported: number; skipped: number; errors: { index: number; reason: string }[] }[];
    }>();
    expect(log.imports[0]).toMatchObject({ id: queued.id, status: 'done', imported: 2, skipped: 1 });
    expect(log.imports[0]?.errors).toEqual([expect.objectContaining({ index: 1, reason: 'no_identifier' })]);
    const found = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shop.shopId}/customers?identifier=b%40example.org`,
      headers: t.adminHeaders,
    });
    const [bob] = found.json<{ items: { id: number }[] }>().items;
    const profile = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shop.shopId}/customers/${bob!.id}`,
      headers: t.adminHeaders,
    });
    expect(profile.json()).toMatchObject({ properties: { first_name: 'Bob; Jr' }, segments: [segmentId] });
  });

  it('refuses a file without records or not CSV with 422 naming `file`, an unknown segment and shop with 404, JSON with 415', async () => {
    const shop = await createShopFixture(t.app.services);
    expect(expectAdminError(await upload(shop.shopId, 'email\n'), 422, 'VALIDATION_FAILED')).toContain('`file`');
    expect(expectAdminError(await upload(shop.shopId, 'email\n"open'), 422, 'VALIDATION_FAILED')).toContain('not valid CSV');
    expectAdminError(await upload(shop.shopId, 'email\na@example.org\n', '?segment_id=99'), 404, 'NOT_FOUND');
    expectAdminError(await upload('abcdef0123456789abcdef01234567', 'email\na@example.org\n'), 404, 'NOT_FOUND');
    const json = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shop.shopId}/imports`,
      headers: t.adminHeaders,
      payload: { audience: [] },
    });
    expect(json.statusCode).toBe(415);
    expect((await t.app.services.audience.listImports(shop.shopId)).length).toBe(0);
  });
});
