import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, PASSWORD, sessionCookieOf, signIn, signedInUser, uniqueEmail } from '../helpers/admin-users.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const HOUR = 60 * 60 * 1000;

describe('admin UI sessions', () => {
  let t: TestApp;
  let shopId: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_TRUST_PROXY: '127.0.0.1' } });
    ({ shopId } = await createShopFixture(t.app.services));
  });
  afterAll(async () => {
    await t.close();
  });

  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/admin/v1/session', headers: { cookie } });

  it('signs in with the right password: the user, a CSRF token and an HttpOnly SameSite=Lax cookie without Secure over http', async () => {
    const email = uniqueEmail('Anna');
    await createUser(t, 'admin', null, email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session',
      payload: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: {
        id: expect.any(Number),
        email,
        role: 'admin',
        shops: null,
        created_at: expect.any(String),
        last_sign_in_at: new Date(t.clock.now()).toISOString(),
        status: 'active',
        disabled: false,
      },
      csrf_token: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(response.headers['set-cookie']).toMatch(/^patron_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = await me(sessionCookieOf(response.headers['set-cookie']));
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email }, csrf_token: response.json().csrf_token });
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const email = uniqueEmail();
    await createUser(t, 'analyst', null, email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('answers a wrong password and an unknown email with the same 401, setting no cookie', async () => {
    const email = uniqueEmail();
    await createUser(t, 'admin', null, email);
    const wrong = await t.app.inject({ method: 'POST', url: '/admin/v1/session', payload: { email, password: 'not the password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/admin/v1/session', payload: { email: uniqueEmail(), password: PASSWORD } });
    for (const response of [wrong, unknown]) {
      expectAdminError(response, 401, 'UNAUTHORIZED');
      expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Email or password is wrong.' } });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body).toBe(unknown.body);
  });

  it('gives a new session id at every sign-in and revokes the one the browser brought', async () => {
    const first = await signedInUser(t, 'marketer');
    const again = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session',
      headers: { cookie: first.cookie },
      payload: { email: first.email, password: PASSWORD },
    });
    const second = sessionCookieOf(again.headers['set-cookie']);
    expect(second).not.toBe(first.cookie);
    expect((await me(second)).statusCode).toBe(200);
    expectAdminError(await me(first.cookie), 401, 'UNAUTHORIZED');
  });

  it('refuses a cookie replayed after sign-out with 401', async () => {
    const user = await signedInUser(t, 'owner');
    const out = await t.app.inject({ method: 'DELETE', url: '/admin/v1/session', headers: user.headers });
    expect(out.statusCode).toBe(204);
    expect(out.headers['set-cookie']).toMatch(/^patron_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    expectAdminError(await me(user.cookie), 401, 'UNAUTHORIZED');
    const replay = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}`, headers: { cookie: user.cookie } });
    expectAdminError(replay, 401, 'UNAUTHORIZED');
  });

  it('ends a session after 12 idle hours, and after 7 days however used', async () => {
    const idle = await signedInUser(t, 'analyst');
    t.clock.advance(12 * HOUR - 1000);
    expect((await me(idle.cookie)).statusCode).toBe(200);
    t.clock.advance(12 * HOUR - 1000);
    expect((await me(idle.cookie)).statusCode).toBe(200);
    t.clock.advance(12 * HOUR);
    expectAdminError(await me(idle.cookie), 401, 'UNAUTHORIZED');

    const busy = await signedInUser(t, 'analyst');
    for (let hour = 10; hour < 7 * 24; hour += 10) {
      t.clock.advance(10 * HOUR);
      expect((await me(busy.cookie)).statusCode, `hour ${hour}`).toBe(200);
    }
    t.clock.advance(10 * HOUR);
    expectAdminError(await me(busy.cookie), 401, 'UNAUTHORIZED');
  });

  describe('CSRF', () => {
    const patch = (headers: Record<string, string>) =>
      t.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shopId}`, headers, payload: { name: 'Renamed by CSRF test' } });

    it('refuses a cookie-authenticated change without the token, with a wrong one, or from another origin (403)', async () => {
      const owner = await signedInUser(t, 'owner');
      expectAdminError(await patch({ cookie: owner.cookie }), 403, 'FORBIDDEN');
      expectAdminError(await patch({ cookie: owner.cookie, 'x-csrf-token': `${owner.csrf.slice(0, -1)}x` }), 403, 'FORBIDDEN');
      expectAdminError(await patch({ ...owner.headers, origin: 'https://evil.example' }), 403, 'FORBIDDEN');
      expect((await t.app.services.shops.requireShop(shopId)).name).not.toBe('Renamed by CSRF test');
    });

    it('lets it through with the right token from the same origin, and a Bearer request needs neither', async () => {
      const owner = await signedInUser(t, 'owner');
      expect((await patch({ ...owner.headers, origin: 'http://localhost:80', host: 'localhost:80' })).statusCode).toBe(200);
      expect((await patch(owner.headers)).statusCode).toBe(200);
      expect((await patch({ ...t.adminHeaders, origin: 'https://elsewhere.example' })).statusCode).toBe(200);
    });

    it('refuses a sign-in posted from another origin', async () => {
      const email = uniqueEmail();
      await createUser(t, 'admin', null, email);
      const response = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/session',
        headers: { origin: 'https://evil.example' },
        payload: { email, password: PASSWORD },
      });
      expectAdminError(response, 403, 'FORBIDDEN');
    });
  });

  it('changes the password with the current one, signing out the other sessions only', async () => {
    const email = uniqueEmail();
    await createUser(t, 'analyst', null, email);
    const here = await signIn(t, email);
    const elsewhere = await signIn(t, email);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session/password',
      headers: here.headers,
      payload: { current_password: 'not the password', new_password: 'a brand new password' },
    });
    expectAdminError(wrong, 422, 'VALIDATION_FAILED');
    const changed = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session/password',
      headers: here.headers,
      payload: { current_password: PASSWORD, new_password: 'a brand new password' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await me(here.cookie)).statusCode).toBe(200);
    expectAdminError(await me(elsewhere.cookie), 401, 'UNAUTHORIZED');
    await signIn(t, email, 'a brand new password');
  });

  it('refuses a new password shorter than 10 characters', async () => {
    const user = await signedInUser(t, 'analyst');
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session/password',
      headers: user.headers,
      payload: { current_password: PASSWORD, new_password: 'short' },
    });
    expectAdminError(response, 422, 'VALIDATION_FAILED');
  });

  describe('invitations', () => {
    it('lets an invitation link be used exactly once, of 100 concurrent uses', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/users',
        headers: t.adminHeaders,
        payload: { email: uniqueEmail('invitee'), role: 'marketer' },
      });
      expect(created.statusCode).toBe(201);
      const inviteUrl = created.json<{ invite_url: string }>().invite_url;
      expect(inviteUrl).toMatch(/^http:\/\/localhost:80\/admin\/invite\/[\w-]{43}$/);
      const token = inviteUrl.split('/').pop()!;
      expect((await t.app.inject({ method: 'GET', url: `/admin/v1/invitations/${token}` })).json()).toEqual({
        email: created.json().email,
        role: 'marketer',
      });
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          t.app.inject({ method: 'POST', url: `/admin/v1/invitations/${token}`, payload: { password: `password number ${i}` } }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(99);
      expect(ok[0]!.json()).toMatchObject({ user: { role: 'marketer', status: 'active' }, csrf_token: expect.any(String) });
      expect((await me(sessionCookieOf(ok[0]!.headers['set-cookie']))).statusCode).toBe(200);
      expectAdminError(await t.app.inject({ method: 'GET', url: `/admin/v1/invitations/${token}` }), 404, 'NOT_FOUND');
    }, 60_000);

    it('makes the first owner from an invitation without email: the person types it', async () => {
      const token = await t.app.services.adminAccounts.ensureFirstOwnerInvitation();
      // Users exist in this app already: no first-owner link is made.
      expect(token).toBeUndefined();
      const fresh = await createTestApp();
      try {
        const first = await fresh.app.services.adminAccounts.ensureFirstOwnerInvitation();
        expect(await fresh.app.services.adminAccounts.ensureFirstOwnerInvitation()).toBeUndefined();
        const read = await fresh.app.inject({ method: 'GET', url: `/admin/v1/invitations/${first}` });
        expect(read.json()).toEqual({ email: null, role: 'owner' });
        const missing = await fresh.app.inject({ method: 'POST', url: `/admin/v1/invitations/${first}`, payload: { password: PASSWORD } });
        expectAdminError(missing, 422, 'VALIDATION_FAILED');
        const used = await fresh.app.inject({
          method: 'POST',
          url: `/admin/v1/invitations/${first}`,
          payload: { email: 'founder@example.org', password: PASSWORD },
        });
        expect(used.statusCode).toBe(200);
        expect(used.json()).toMatchObject({ user: { email: 'founder@example.org', role: 'owner', shops: null } });
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('sign-in attempts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { PATRON_RATE_LIMIT: 'on', PATRON_RATE_LIMIT_AUTH_FAILURES: '3', PATRON_RATE_LIMIT_AUTH_WINDOW_SECONDS: '120' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  const attempt = (email: string, password: string, address: string) =>
    t.app.inject({ method: 'POST', url: '/admin/v1/session', remoteAddress: address, payload: { email, password } });

  it('refuses every sign-in from an address after 3 failures, the right password included, until the window ends', async () => {
    const email = uniqueEmail();
    await createUser(t, 'admin', null, email);
    for (let i = 0; i < 3; i += 1) expect((await attempt(uniqueEmail(), 'guess number one', '192.0.2.10')).statusCode).toBe(401);
    const refused = await attempt(email, PASSWORD, '192.0.2.10');
    expectAdminError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('120');
    expect((await attempt(email, PASSWORD, '192.0.2.11')).statusCode).toBe(200);
    t.clock.advance(120_000);
    expect((await attempt(email, PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('refuses sign-ins to one email after 3 failures from several addresses', async () => {
    const email = uniqueEmail();
    await createUser(t, 'admin', null, email);
    for (let i = 0; i < 3; i += 1) expect((await attempt(email, 'wrong password!', `198.51.100.${i + 1}`)).statusCode).toBe(401);
    expectAdminError(await attempt(email, PASSWORD, '198.51.100.50'), 429, 'RATE_LIMITED');
    t.clock.advance(120_000);
    expect((await attempt(email, PASSWORD, '198.51.100.50')).statusCode).toBe(200);
  });
});
