import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROTATION_GRACE_MS } from '../../src/modules/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

/** /admin/v1/shops/:shop_id/webhooks/endpoints (docs/webhooks.md), with the default guard: no private addresses. */

type Body = Record<string, unknown>;
const URL_OK = 'https://93.184.216.34/hooks/patron';

describe.each(TEST_DIALECTS)('admin webhook routes on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { PATRON_SECRET_KEY: 'b'.repeat(64) } });
    shopId = (await createShopFixture(t.app.services)).shopId;
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: Body, shop = shopId) =>
    t.app.inject({
      method,
      url: `/admin/v1/shops/${shop}/webhooks/endpoints${path}`,
      headers: t.adminHeaders,
      ...(payload === undefined ? {} : { payload }),
    });

  async function create(body: Body = { url: URL_OK, event_types: ['message.bounced', 'tracking.purchase'] }) {
    const response = await inject('POST', '', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Body & { id: string; secret: string }>();
  }

  it('creates an endpoint, answering its secret once; reads, lists, changes and deletes it', async () => {
    const created = await create({
      url: URL_OK,
      event_types: ['message.bounced', 'tracking.purchase', 'message.bounced'],
      description: 'CRM',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^ep_[A-Za-z0-9_-]{22}$/),
      url: URL_OK,
      description: 'CRM',
      event_types: ['message.bounced', 'tracking.purchase'],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      created_at: new Date(t.clock.now()).toISOString(),
      updated_at: new Date(t.clock.now()).toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const [row] = await t.db.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', created.id).execute();
    expect(row!.secret).toMatch(/^sealed:v1:/);
    expect(row!.secret).not.toContain(created.secret.slice(6));

    const read = await inject('GET', `/${created.id}`);
    expect(read.statusCode).toBe(200);
    const { secret: _secret, ...shown } = created;
    expect(read.json()).toEqual(shown);
    expect(read.body).not.toContain('whsec_');
    expect((await inject('GET', '')).json()).toEqual({ endpoints: [shown] });

    t.clock.advance(1000);
    const patched = await inject('PATCH', `/${created.id}`, { event_types: ['message.opened'], enabled: false });
    expect(patched.json()).toMatchObject({
      event_types: ['message.opened'],
      enabled: false,
      disabled_reason: 'Disabled by the shop.',
      description: 'CRM',
    });
    expect(patched.json<Body>().updated_at).toBe(new Date(t.clock.now()).toISOString());
    expectAdminError(await inject('PATCH', `/${created.id}`, {}), 422, 'VALIDATION_FAILED');

    expect((await inject('DELETE', `/${created.id}`)).statusCode).toBe(204);
    expectAdminError(await inject('GET', `/${created.id}`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `/${created.id}`), 404, 'NOT_FOUND');
  });

  it('refuses a URL on 127.0.0.1 or a name that resolves to loopback when it is saved, naming the url', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://0.0.0.0/']) {
      const response = await inject('POST', '', { url, event_types: ['message.sent'] });
      expect(expectAdminError(response, 422, 'VALIDATION_FAILED')).toBe(
        'The URL points to a local or private network address, which is not allowed.',
      );
    }
    const { id } = await create();
    const moved = await inject('PATCH', `/${id}`, { url: 'http://127.0.0.1/elsewhere' });
    expectAdminError(moved, 422, 'VALIDATION_FAILED');
    expect((await inject('GET', `/${id}`)).json<Body>().url).toBe(URL_OK);
    expect((await t.db.db.selectFrom('webhook_endpoints').select('url').where('url', 'like', '%127.0.0.1%').execute()).length).toBe(0);
  });

  it('refuses unknown event types, an empty list, other schemes, over-long fields and unknown properties', async () => {
    for (const body of [
      { url: URL_OK, event_types: ['message.nope'] },
      { url: URL_OK, event_types: [] },
      { url: 'ftp://93.184.216.34/x', event_types: ['message.sent'] },
      { url: 'https://user:pass@93.184.216.34/x', event_types: ['message.sent'] },
      { url: `https://93.184.216.34/${'a'.repeat(2000)}`, event_types: ['message.sent'] },
      { url: URL_OK, event_types: ['message.sent'], description: 'd'.repeat(201) },
      { url: URL_OK, event_types: ['message.sent'], secret: 'whsec_mine' },
    ]) {
      expectAdminError(await inject('POST', '', body), 422, 'VALIDATION_FAILED');
    }
  });

  it('rotates the secret: a new one answered once, the previous one signing for 24 hours more', async () => {
    const { id, secret } = await create();
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopId}/webhooks/endpoints/${id}/rotate-secret`,
      headers: t.adminHeaders,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const expires = new Date(t.clock.now() + ROTATION_GRACE_MS).toISOString();
    expect(rotated.json()).toEqual({ secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expires });
    expect(rotated.json<{ secret: string }>().secret).not.toBe(secret);
    expect((await inject('GET', `/${id}`)).json<Body>().previous_secret_expires_at).toBe(expires);
  });

  it("lists deliveries with bounded paging, and keeps one shop out of another shop's endpoints", async () => {
    const { id } = await create();
    const list = await inject('GET', `/${id}/deliveries?limit=10&offset=0&status=failed`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({ deliveries: [] });
    expectAdminError(await inject('GET', `/${id}/deliveries?limit=0`), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('GET', `/${id}/deliveries?limit=101`), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('GET', `/${id}/deliveries?status=lost`), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('GET', '/ep_unknown/deliveries'), 404, 'NOT_FOUND');
    expectAdminError(await inject('POST', `/${id}/deliveries/msg_none/retry`), 404, 'NOT_FOUND');

    const other = (await createShopFixture(t.app.services)).shopId;
    expectAdminError(await inject('GET', `/${id}`, undefined, other), 404, 'NOT_FOUND');
    expectAdminError(await inject('PATCH', `/${id}`, { enabled: false }, other), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `/${id}`, undefined, other), 404, 'NOT_FOUND');
    expect((await inject('GET', '', undefined, other)).json()).toEqual({ endpoints: [] });
    expectAdminError(await inject('GET', '', undefined, 'abcdef0123456789abcdef01234567'), 404, 'NOT_FOUND');
  });
});
