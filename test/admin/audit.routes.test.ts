import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPrincipal } from '../../src/admin-api/principal.js';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { expectAdminError } from './admin-assertions.js';

type Body = Record<string, unknown>;
interface Entry {
  id: number;
  at: string;
  actor: Record<string, unknown>;
  shop_id: string | null;
  method: string;
  path: string;
  action: string;
  status: number;
  before: unknown;
  after: { request: unknown; response: unknown } | null;
  ip: string | null;
}

/**
 * The audit log through the whole app (docs/audit-log.md): what the admin scope records
 * of each write, and GET /admin/v1/audit. The users engineer's authentication is not
 * here yet, so a test acts as a user by setting the request's principal in a handler of
 * its own, which runs after the scope's authentication (the admin token's superuser).
 */
describe('the audit log', () => {
  let t: TestApp;
  let actAs: AdminPrincipal | undefined;

  beforeAll(async () => {
    const actAsHook = (request: { adminPrincipal?: AdminPrincipal }, _reply: unknown, next: () => void) => {
      if (actAs) request.adminPrincipal = actAs;
      next();
    };
    t = await createTestApp({
      onRoute: (route: RouteOptions) => {
        if (!route.url.startsWith('/admin/v1')) return;
        const own = route.preValidation;
        route.preValidation = [actAsHook, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])] as RouteOptions['preValidation'];
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    actAs = undefined;
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });

  async function latest(query = ''): Promise<Entry[]> {
    const response = await inject('GET', `/admin/v1/audit${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Entry[] }>().items;
  }
  async function newestId(): Promise<number> {
    return (await latest('?limit=1'))[0]?.id ?? 0;
  }

  it('records a PATCH of a shop with the shop as it was before and the change after', async () => {
    const { shopId } = await createShopFixture(t.app.services, { name: 'Old name' });
    const response = await inject('PATCH', `/admin/v1/shops/${shopId}?trace=1`, { name: 'New name', restricted: true });
    expect(response.statusCode).toBe(200);
    const [entry] = await latest();
    expect(entry).toEqual({
      id: expect.any(Number),
      at: new Date(t.clock.now()).toISOString(),
      actor: { kind: 'superuser' },
      shop_id: shopId,
      method: 'PATCH',
      path: `/admin/v1/shops/${shopId}`,
      action: 'shop.update',
      status: 200,
      before: expect.objectContaining({ shop_id: shopId, name: 'Old name', restricted: false }),
      after: {
        request: { name: 'New name', restricted: true },
        response: expect.objectContaining({ shop_id: shopId, name: 'New name', restricted: true }),
      },
      ip: '127.0.0.1',
    });
  });

  it('records a secret rotation with the new secret redacted, nowhere in the entry', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await inject('POST', `/admin/v1/shops/${shopId}/secret`);
    const secret = response.json<{ shop_secret: string }>().shop_secret;
    const read = await inject('GET', '/admin/v1/audit?limit=1');
    const [entry] = read.json<{ items: Entry[] }>().items;
    expect(entry).toMatchObject({
      action: 'shop.secret.rotate',
      shop_id: shopId,
      before: null,
      after: { request: null, response: { shop_secret: '[redacted]' } },
    });
    expect(read.body).not.toContain(secret);
    const stored = await t.db.db.selectFrom('audit_log').select(['before', 'after']).execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('records a shop creation under the shop it created, its secret redacted', async () => {
    const response = await inject('POST', '/admin/v1/shops', { name: 'Created here' });
    const { shop_id: shopId, shop_secret: secret } = response.json<{ shop_id: string; shop_secret: string }>();
    const read = await inject('GET', '/admin/v1/audit?limit=1');
    expect(read.json<{ items: Entry[] }>().items[0]).toMatchObject({ action: 'shop.create', shop_id: shopId, status: 201 });
    expect(read.body).not.toContain(secret);
  });

  it('records nothing for a write that fails (4xx) nor for a read', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const before = await newestId();
    expectAdminError(await inject('PATCH', `/admin/v1/shops/${shopId}`, { name: '' }), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('PATCH', `/admin/v1/shops/${'0'.repeat(30)}`, { name: 'x' }), 404, 'NOT_FOUND');
    expectAdminError(await inject('POST', `/admin/v1/shops/${shopId}/custom-events`, { code: 'bad code!' }), 422, 'VALIDATION_FAILED');
    expect((await inject('GET', `/admin/v1/shops/${shopId}`)).statusCode).toBe(200);
    expect((await inject('GET', '/admin/v1/shops')).statusCode).toBe(200);
    expect(await newestId()).toBe(before);
  });

  it('records nothing for a POST that only renders (a preview of a mailing or of any template), and records the mailing it renders', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const put = await inject('PUT', `/admin/v1/shops/${shopId}/mailings/transactional/welcome`, {
      email: { subject: 'Hi {{ name }}', html: '<p>Hello {{ name }}</p>' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const afterPut = await newestId();
    expect((await latest('?limit=1'))[0]?.action).toMatch(/^mailing/);
    const preview = await inject('POST', `/admin/v1/shops/${shopId}/mailings/transactional/welcome/preview`, {
      variables: { name: 'Ann' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).toContain('Hi Ann');
    const any = await inject('POST', `/admin/v1/shops/${shopId}/templates/preview`, {
      channel: 'email',
      template: { email: { subject: 'Hello {{ name }}', html: '<p>{{ name }}</p>' } },
      variables: { name: 'Bo' },
    });
    expect(any.statusCode, any.body).toBe(200);
    expect(any.body).toContain('Hello Bo');
    expect(await newestId()).toBe(afterPut);
  });

  it('records a data write (a bonus credit) without reading its before, and a DELETE of a setting with it', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const base = `/admin/v1/shops/${shopId}`;
    expect((await inject('POST', `${base}/loyalty/members`, { phone: '79070000001' })).statusCode).toBe(201);
    expect((await inject('POST', `${base}/loyalty/members/79070000001/bonuses`, { amount: 12.5, reason: 'goodwill' })).statusCode).toBe(
      201,
    );
    const [credit] = await latest();
    expect(credit).toMatchObject({
      action: 'loyalty.member.bonuses.credit',
      before: null,
      after: { request: { amount: 12.5, reason: 'goodwill' }, response: { balance: 12.5 } },
    });
    expect((await inject('POST', `${base}/custom-events`, { code: 'wishlist_shared', name: 'Shared' })).statusCode).toBe(201);
    expect((await inject('DELETE', `${base}/custom-events/wishlist_shared`)).statusCode).toBe(204);
    const [deleted] = await latest();
    expect(deleted).toMatchObject({
      action: 'custom_event.delete',
      method: 'DELETE',
      status: 204,
      after: { request: null, response: null },
    });
  });

  it('records who the user was when a user makes the change', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    actAs = { kind: 'user', userId: 41, email: 'owner@example.com', role: 'owner', shops: null, via: 'token' };
    expect((await inject('PATCH', `/admin/v1/shops/${shopId}`, { name: 'By a user' })).statusCode).toBe(200);
    const [entry] = await latest('?user_id=41');
    expect(entry).toMatchObject({
      actor: { kind: 'user', user_id: 41, email: 'owner@example.com', via: 'token' },
      action: 'shop.update',
      before: expect.objectContaining({ name: expect.stringMatching(/^Test shop/) }),
    });
  });

  it('pages 120 entries newest first by next_cursor, each once, and filters by shop and action', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    for (let i = 0; i < 120; i++) {
      const target = i % 3 === 0 ? other.shopId : shopId;
      expect((await inject('PATCH', `/admin/v1/shops/${target}`, { name: `Name ${i}` })).statusCode).toBe(200);
    }
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const read = await inject('GET', `/admin/v1/audit?shop_id=${shopId}&limit=30${cursor ? `&cursor=${cursor}` : ''}`);
      const page = read.json<{ items: Entry[]; next_cursor: string | null }>();
      names.push(...page.items.map((e) => (e.after?.request as { name: string }).name));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    const expected = Array.from({ length: 120 }, (_, i) => 119 - i)
      .filter((i) => i % 3 !== 0)
      .map((i) => `Name ${i}`);
    expect(names).toEqual(expected);
    expect(pages).toBe(3);

    const all: number[] = [];
    cursor = null;
    do {
      const read = await inject('GET', `/admin/v1/audit?action=shop.update&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      const page = read.json<{ items: Entry[]; next_cursor: string | null }>();
      all.push(...page.items.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(all.length).toBeGreaterThanOrEqual(120);
  });

  it('refuses a bad limit, cursor or action with 422 naming it', async () => {
    expect(expectAdminError(await inject('GET', '/admin/v1/audit?limit=201'), 422, 'VALIDATION_FAILED')).toContain('`limit`');
    expect(expectAdminError(await inject('GET', '/admin/v1/audit?limit=0'), 422, 'VALIDATION_FAILED')).toContain('`limit`');
    expect(expectAdminError(await inject('GET', '/admin/v1/audit?cursor=abc'), 422, 'VALIDATION_FAILED')).toContain('`cursor`');
    expect(expectAdminError(await inject('GET', "/admin/v1/audit?action=x'or"), 422, 'VALIDATION_FAILED')).toContain('`action`');
  });

  it('lets owners and admins read, refuses marketers and analysts, and shows a shop-limited user only their shops', async () => {
    const mine = await createShopFixture(t.app.services);
    const theirs = await createShopFixture(t.app.services);
    await inject('PATCH', `/admin/v1/shops/${mine.shopId}`, { name: 'Mine' });
    await inject('PATCH', `/admin/v1/shops/${theirs.shopId}`, { name: 'Theirs' });
    await inject('POST', '/admin/v1/shops', { name: 'Another' });
    const user = (role: 'owner' | 'admin' | 'marketer' | 'analyst', shops: string[] | null): AdminPrincipal => ({
      kind: 'user',
      userId: 5,
      email: 'u@example.com',
      role,
      shops,
      via: 'session',
    });
    for (const role of ['marketer', 'analyst'] as const) {
      actAs = user(role, null);
      const refused = await inject('GET', '/admin/v1/audit');
      expect(expectAdminError(refused, 403, 'FORBIDDEN')).toBe('You do not have access to this.');
    }
    actAs = user('admin', [mine.shopId]);
    const limited = await latest('?limit=200');
    expect(limited.length).toBeGreaterThan(0);
    expect(new Set(limited.map((e) => e.shop_id))).toEqual(new Set([mine.shopId]));
    expect(expectAdminError(await inject('GET', `/admin/v1/audit?shop_id=${theirs.shopId}`), 403, 'FORBIDDEN')).toBe(
      'You do not have access to this.',
    );
    actAs = user('owner', null);
    expect((await latest('?limit=200')).some((e) => e.shop_id === theirs.shopId)).toBe(true);
  });

  it('records an upload by its type and size, not its bytes', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const xml = '<?xml version="1.0"?><yml_catalog date="2026-01-01"><shop><offers></offers></shop></yml_catalog>';
    const response = await t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/feed`,
      headers: { ...t.adminHeaders, 'content-type': 'application/xml' },
      payload: xml,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    const [entry] = await latest();
    expect(entry).toMatchObject({
      action: 'feed.update',
      before: null,
      after: { request: { content_type: 'application/xml', bytes: Buffer.byteLength(xml) } },
    });
    expect(JSON.stringify(entry)).not.toContain('yml_catalog');
  });

  it('records a JSON feed upload, whose body the route streams, by its type and size and answers at once', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const feed = JSON.stringify({
      categories: [{ id: '1', name: 'A' }],
      offers: [{ id: '1', name: 'X', price: 10, url: 'https://example.org/1', categoryId: '1', available: true }],
    });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/feed`,
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      payload: feed,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [entry] = await latest();
    expect(entry).toMatchObject({
      action: 'feed.update',
      after: { request: { content_type: 'application/json', bytes: Buffer.byteLength(feed) } },
    });
  }, 20_000);

  it('lists GET /admin/v1/audit in the OpenAPI document with its response schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, { get?: { responses?: Record<string, unknown> } }>;
    }>();
    expect(doc.paths['/admin/v1/audit']?.get?.responses?.['200']).toBeDefined();
  });
});
