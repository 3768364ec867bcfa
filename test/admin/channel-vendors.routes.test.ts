import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

/** GET …/channels/{channel}/vendors: what the admin UI draws a channel's settings form from (docs/messaging.md). */
describe.each(TEST_DIALECTS)('admin: channel vendors on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
  });

  afterAll(async () => {
    await t?.close();
  });

  const get = (path: string) => t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders });

  it("answers the email channel's smtp vendor with its settings schema and its secret fields", async () => {
    const r = await get('/channels/email/vendors');
    expect(r.statusCode, r.body).toBe(200);
    const { vendors } = r.json<{ vendors: Array<{ vendor: string; secret_fields: string[]; settings_schema: Record<string, unknown> }> }>();
    expect(vendors.map((v) => v.vendor)).toEqual(['smtp']);
    expect(vendors[0]?.secret_fields).toEqual(['smtp_url', 'dkim']);
    const schema = vendors[0]?.settings_schema as { type: string; properties: Record<string, { type?: string }>; required: string[] };
    expect(schema.type).toBe('object');
    expect(schema.properties.smtp_url?.type).toBe('string');
    expect(schema.properties.dkim?.type).toBe('object');
    expect(schema.required).toEqual(expect.arrayContaining(['smtp_url', 'from']));
  });

  it('answers both vendors of mobile_push and the two of sms', async () => {
    const push = await get('/channels/mobile_push/vendors');
    expect(push.json<{ vendors: Array<{ vendor: string }> }>().vendors.map((v) => v.vendor)).toEqual(['fcm', 'apns']);
    const sms = await get('/channels/sms/vendors');
    expect(sms.json<{ vendors: Array<{ vendor: string; secret_fields: string[] }> }>().vendors).toEqual([
      expect.objectContaining({ vendor: 'smpp', secret_fields: ['password'] }),
      expect.objectContaining({ vendor: 'http_sms', secret_fields: ['token', 'password', 'extra_fields'] }),
    ]);
  });

  it('refuses an unknown channel and an unknown shop with 404', async () => {
    expect(expectAdminError(await get('/channels/fax/vendors'), 404, 'NOT_FOUND')).toMatch(/Unknown channel/);
    const other = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${'0'.repeat(30)}/channels/email/vendors`,
      headers: t.adminHeaders,
    });
    expect(other.statusCode).toBe(404);
  });
});
