import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedInUser } from '../helpers/admin-users.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const FORBIDDEN = { error: { code: 'FORBIDDEN', message: 'You do not have access to this.' } };

describe('roles and shops on /admin/v1', () => {
  let t: TestApp;
  let shopA: string;
  let shopB: string;
  beforeAll(async () => {
    t = await createTestApp();
    shopA = (await createShopFixture(t.app.services)).shopId;
    shopB = (await createShopFixture(t.app.services)).shopId;
  });
  afterAll(async () => {
    await t.close();
  });

  it("refuses a marketer's rotation of a shop secret, shop changes and channel credentials, and allows their marketing work", async () => {
    const marketer = await signedInUser(t, 'marketer');
    const secretBefore = await t.app.services.shops.findShopWithCredentials(shopA);
    const refused = [
      { method: 'POST', url: `/admin/v1/shops/${shopA}/secret` },
      { method: 'POST', url: '/admin/v1/shops', payload: { name: 'Marketer shop' } },
      { method: 'PATCH', url: `/admin/v1/shops/${shopA}`, payload: { active: false } },
      { method: 'PUT', url: `/admin/v1/shops/${shopA}/channels/email`, payload: { smtp_url: 'smtp://127.0.0.1:1025' } },
      { method: 'POST', url: '/admin/v1/users', payload: { email: 'new@example.org', role: 'analyst' } },
    ] as const;
    for (const route of refused) {
      const response = await t.app.inject({ ...route, headers: marketer.headers });
      expect(response.statusCode, route.url).toBe(403);
      expect(response.json(), route.url).toEqual(FORBIDDEN);
    }
    expect(await t.app.services.shops.findShopWithCredentials(shopA)).toEqual(secretBefore);
    const allowed = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopA}/custom-events`,
      headers: marketer.headers,
      payload: { code: 'marketer_event' },
    });
    expect(allowed.statusCode).toBe(201);
  });

  it('refuses a user limited to shop A on shop B, serves shop A, and lists only shop A', async () => {
    const limited = await signedInUser(t, 'admin', [shopA]);
    const other = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopB}`, headers: { cookie: limited.cookie } });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(FORBIDDEN);
    const otherEvents = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shopB}/custom-events`,
      headers: { cookie: limited.cookie },
    });
    expect(otherEvents.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopA}`, headers: { cookie: limited.cookie } })).statusCode).toBe(
      200,
    );
    const list = await t.app.inject({ method: 'GET', url: '/admin/v1/shops', headers: { cookie: limited.cookie } });
    expect(list.json<{ shops: { shop_id: string }[] }>().shops.map((s) => s.shop_id)).toEqual([shopA]);
    const create = await t.app.inject({ method: 'POST', url: '/admin/v1/shops', headers: limited.headers, payload: { name: 'Mine' } });
    expect(create.statusCode).toBe(403);
  });

  it('lets an analyst read but change nothing', async () => {
    const analyst = await signedInUser(t, 'analyst');
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopA}`, headers: { cookie: analyst.cookie } })).statusCode).toBe(
      200,
    );
    const changes = [
      { method: 'PATCH', url: `/admin/v1/shops/${shopA}`, payload: { name: 'Analysed' } },
      { method: 'PATCH', url: `/admin/v1/users/${analyst.userId}`, payload: { role: 'owner' } },
      { method: 'POST', url: `/admin/v1/shops/${shopA}/custom-events`, payload: { code: 'analyst_event' } },
      { method: 'DELETE', url: `/admin/v1/shops/${shopA}/custom-events/marketer_event` },
    ] as const;
    for (const route of changes) {
      const response = await t.app.inject({ ...route, headers: analyst.headers });
      expect(response.json(), route.url).toEqual(FORBIDDEN);
    }
    // Refused before validation: a malformed body gets the same 403, not a 422 telling what the route expects.
    const malformed = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/shops/${shopA}`,
      headers: analyst.headers,
      payload: { name: 7 },
    });
    expect(malformed.statusCode).toBe(403);
    expect((await t.app.services.adminAccounts.requireUser(analyst.userId)).role).toBe('analyst');
  });

  it("gives an API token its user's rights, as they are at each request, until it is deleted", async () => {
    const owner = await signedInUser(t, 'owner');
    const marketer = await signedInUser(t, 'marketer');
    const created = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/users/${marketer.userId}/tokens`,
      headers: marketer.headers,
      payload: { name: 'nightly export' },
    });
    expect(created.statusCode).toBe(201);
    const { id, token } = created.json<{ id: number; token: string }>();
    expect(token).toMatch(/^pat_[\w-]{43}$/);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopA}`, headers: bearer })).statusCode).toBe(200);
    // No CSRF token needed with a Bearer credential; the marketer's limits apply.
    expect((await t.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopA}/secret`, headers: bearer })).statusCode).toBe(403);
    const listed = await t.app.inject({ method: 'GET', url: `/admin/v1/users/${marketer.userId}/tokens`, headers: bearer });
    expect(listed.json()).toEqual({
      items: [{ id, name: 'nightly export', created_at: expect.any(String), last_used_at: expect.any(String) }],
    });

    // Made an analyst: the same token can no longer write.
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/users/${marketer.userId}`,
      headers: owner.headers,
      payload: { role: 'analyst' },
    });
    expect(demote.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopA}/custom-events`,
      headers: bearer,
      payload: { code: 'x1' },
    });
    expect(write.statusCode).toBe(403);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/admin/v1/users/${marketer.userId}/tokens/${id}`, headers: bearer });
    expect(deleted.statusCode).toBe(204);
    expectAdminError(await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopA}`, headers: bearer }), 401, 'UNAUTHORIZED');
  });

  it("keeps other people's tokens to owners and admins", async () => {
    const analyst = await signedInUser(t, 'analyst');
    const other = await signedInUser(t, 'marketer');
    const response = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/users/${other.userId}/tokens`,
      headers: analyst.headers,
      payload: { name: 'stolen' },
    });
    expect(response.json()).toEqual(FORBIDDEN);
    const admin = await signedInUser(t, 'admin');
    const byAdmin = await t.app.inject({ method: 'GET', url: `/admin/v1/users/${other.userId}/tokens`, headers: { cookie: admin.cookie } });
    expect(byAdmin.statusCode).toBe(200);
  });

  it('keeps owners to owners: an admin cannot create, change or remove one', async () => {
    const admin = await signedInUser(t, 'admin');
    const owner = await signedInUser(t, 'owner');
    const attempts = [
      { method: 'POST', url: '/admin/v1/users', payload: { email: 'boss@example.org', role: 'owner' } },
      { method: 'PATCH', url: `/admin/v1/users/${owner.userId}`, payload: { disabled: true } },
      { method: 'PATCH', url: `/admin/v1/users/${admin.userId}`, payload: { role: 'owner' } },
      { method: 'DELETE', url: `/admin/v1/users/${owner.userId}` },
      { method: 'POST', url: `/admin/v1/users/${owner.userId}/invitation` },
    ] as const;
    for (const route of attempts) {
      const response = await t.app.inject({ ...route, headers: admin.headers });
      expect(response.json(), `${route.method} ${route.url}`).toEqual(FORBIDDEN);
    }
    const analyst = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/users',
      headers: admin.headers,
      payload: { email: 'reader@example.org', role: 'analyst', shops: [shopA] },
    });
    expect(analyst.statusCode).toBe(201);
    expect(analyst.json()).toEqual({
      id: expect.any(Number),
      email: 'reader@example.org',
      role: 'analyst',
      shops: [shopA],
      invite_url: expect.stringMatching(/^http:\/\/localhost:80\/admin\/invite\/[\w-]{43}$/),
    });
  });
});

describe('the last owner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('cannot be demoted, disabled or removed (409); with a second owner, can', async () => {
    const owner = await signedInUser(t, 'owner');
    const attempts = [
      { method: 'PATCH', url: `/admin/v1/users/${owner.userId}`, payload: { role: 'admin' } },
      { method: 'PATCH', url: `/admin/v1/users/${owner.userId}`, payload: { disabled: true } },
      { method: 'DELETE', url: `/admin/v1/users/${owner.userId}` },
    ] as const;
    for (const route of attempts) expectAdminError(await t.app.inject({ ...route, headers: owner.headers }), 409, 'CONFLICT');

    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/users',
      headers: owner.headers,
      payload: { email: 'second.owner@example.org', password: 'a long enough password', role: 'owner' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().invite_url).toBeUndefined();
    const demoted = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/users/${owner.userId}`,
      headers: owner.headers,
      payload: { role: 'admin' },
    });
    expect(demoted.json()).toMatchObject({ role: 'admin' });
  });

  it('a disabled or removed user is signed out at once', async () => {
    const admin = await signedInUser(t, 'admin');
    const victim = await signedInUser(t, 'marketer');
    const disable = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/users/${victim.userId}`,
      headers: admin.headers,
      payload: { disabled: true },
    });
    expect(disable.json()).toMatchObject({ disabled: true });
    expectAdminError(
      await t.app.inject({ method: 'GET', url: '/admin/v1/session', headers: { cookie: victim.cookie } }),
      401,
      'UNAUTHORIZED',
    );
    const listed = await t.app.inject({ method: 'GET', url: '/admin/v1/users', headers: { cookie: admin.cookie } });
    expect(listed.json<{ items: { id: number }[] }>().items.map((u) => u.id)).toContain(victim.userId);
    expect((await t.app.inject({ method: 'DELETE', url: `/admin/v1/users/${victim.userId}`, headers: admin.headers })).statusCode).toBe(
      204,
    );
    expectAdminError(
      await t.app.inject({ method: 'GET', url: `/admin/v1/users/${victim.userId}`, headers: t.adminHeaders }),
      404,
      'NOT_FOUND',
    );
  });

  it('gives an admin a new link for a user, which resets the password', async () => {
    const marketer = await signedInUser(t, 'marketer');
    const link = await t.app.inject({ method: 'POST', url: `/admin/v1/users/${marketer.userId}/invitation`, headers: t.adminHeaders });
    expect(link.statusCode).toBe(201);
    const token = link.json<{ invite_url: string }>().invite_url.split('/').pop()!;
    const used = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/invitations/${token}`,
      payload: { password: 'reset password here' },
    });
    expect(used.statusCode).toBe(200);
    expectAdminError(
      await t.app.inject({ method: 'GET', url: '/admin/v1/session', headers: { cookie: marketer.cookie } }),
      401,
      'UNAUTHORIZED',
    );
  });
});
