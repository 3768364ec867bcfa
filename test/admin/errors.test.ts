import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { expectAdminError } from './admin-assertions.js';

describe('admin request bodies', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_BODY_LIMIT: '2048' } });
    ({ shopId } = await createShopFixture(t.app.services));
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      headers: { ...t.adminHeaders, 'content-type': contentType },
      payload,
    });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const message = expectAdminError(await post('{"name": "Shop",'), 400, 'BAD_REQUEST');
    expect(message).toBe('Request body is not valid JSON.');
  });

  it('refuses a prototype-poisoning body with 400', async () => {
    expectAdminError(await post('{"name":"Shop","__proto__":{"admin":true}}'), 400, 'BAD_REQUEST');
  });

  it('answers a body over the size limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const message = expectAdminError(await post(JSON.stringify({ name: 'x'.repeat(4096) })), 413, 'PAYLOAD_TOO_LARGE');
    expect(message).toContain('2048 bytes');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE',
    async (type) => {
      const message = expectAdminError(await post('name=Shop', type), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(message).toContain(type);
    },
  );

  it('accepts JSON with a charset parameter', async () => {
    expect((await post('{"name":"Charset shop"}', 'application/json; charset=utf-8')).statusCode).toBe(201);
  });

  it('leaves the shop unchanged after a refused body', async () => {
    const before = await t.app.services.shops.requireShop(shopId);
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/shops/${shopId}`,
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      payload: '{"active": false',
    });
    expect(await t.app.services.shops.requireShop(shopId)).toEqual(before);
  });
});

describe('admin faults', () => {
  let db: TestDb;
  let app: PatronApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    const config = loadConfig({ PATRON_ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString('utf8'));
        callback();
      },
    });
    app = await buildApp({ config, db, clock: new ManualClock(), logger: { level: 'error', stream } });
    await app.services.adminToken.ensure();
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('answers an unexpected fault with 500 INTERNAL and a generic message, and logs the cause', async () => {
    const { shopId } = await createShopFixture(app.services);
    // A real fault: the table the route needs is gone.
    await db.db.schema.dropTable('custom_event_codes').execute();

    const response = await app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shopId}/custom-events`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });

    const message = expectAdminError(response, 500, 'INTERNAL');
    expect(message).toBe('An internal error occurred; the details are in the server log.');
    expect(response.body).not.toMatch(/custom_event_codes|sqlite|SQL/i);
    const logged = logLines.join('');
    expect(logged).toContain('admin request failed');
    expect(logged).toContain('no such table: custom_event_codes');
  });
});
