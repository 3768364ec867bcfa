import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, PASSWORD, signIn, signedInUser, uniqueEmail, type SignedIn } from '../helpers/admin-users.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

interface OwnSession {
  id: string;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}
interface Page {
  items: OwnSession[];
  next_cursor: string | null;
}

describe.each(TEST_DIALECTS)('the account screen: your own sessions on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (who: { cookie: string }, query = '') =>
    t.app.inject({ method: 'GET', url: `/admin/v1/session/sessions${query}`, headers: { cookie: who.cookie } });
  const revoke = (who: SignedIn, id: string, headers: Record<string, string> = who.headers) =>
    t.app.inject({ method: 'DELETE', url: `/admin/v1/session/sessions/${id}`, headers });
  const alive = async (who: { cookie: string }) =>
    (await t.app.inject({ method: 'GET', url: '/admin/v1/session', headers: { cookie: who.cookie } })).statusCode === 200;

  /** The user's sessions, signed in `count` times a minute apart, oldest first. */
  async function sessionsOf(count: number, role: 'analyst' | 'owner' = 'analyst', shops: string[] | null = null): Promise<SignedIn[]> {
    const email = uniqueEmail(role);
    await createUser(t, role, shops, email);
    const made: SignedIn[] = [];
    for (let i = 0; i < count; i++) {
      t.clock.advance(60_000);
      made.push(await signIn(t, email));
    }
    return made;
  }

  it('lists your live sessions newest first, marking the current one, and nothing that signs in', async () => {
    const email = uniqueEmail('ua');
    await createUser(t, 'marketer', null, email);
    const phone = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/session',
      headers: { 'user-agent': 'Phone Browser 1.0' },
      payload: { email, password: PASSWORD },
    });
    expect(phone.statusCode).toBe(200);
    t.clock.advance(60_000);
    const laptop = await signIn(t, email);
    const someoneElse = await signedInUser(t, 'marketer');

    const res = await list(laptop);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.next_cursor).toBeNull();
    expect(page.items).toHaveLength(2);
    const [first, second] = page.items;
    expect(first).toEqual({
      id: expect.stringMatching(/^[\w-]{22}$/),
      created_at: new Date(t.clock.now()).toISOString(),
      last_seen_at: new Date(t.clock.now()).toISOString(),
      ip: '127.0.0.1',
      user_agent: 'lightMyRequest',
      current: true,
    });
    expect(second).toMatchObject({ user_agent: 'Phone Browser 1.0', current: false });
    expect(first!.id).not.toBe(second!.id);
    // The public id is not the cookie's id nor anything derived from it that the body shows.
    expect(res.body).not.toContain(laptop.cookie.split('=')[1]);
    expect(res.body).not.toContain(laptop.csrf);
    expect((await list(someoneElse)).json<Page>().items.map((s) => s.current)).toEqual([true]);
  });

  it('pages with the cursor, each session once, and leaves out the signed-out ones', async () => {
    const sessions = await sessionsOf(5);
    const last = sessions.at(-1)!;
    const signOut = await t.app.inject({ method: 'DELETE', url: '/admin/v1/session', headers: sessions[1]!.headers });
    expect(signOut.statusCode).toBe(204);
    const seen: OwnSession[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(last, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Page>();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((s) => s.id)).size).toBe(4);
    expect(seen.map((s) => s.created_at)).toEqual([...seen.map((s) => s.created_at)].sort().reverse());
    expect(seen.filter((s) => s.current)).toHaveLength(1);
  });

  it('signs another of your sessions out by its id: that cookie stops working, yours goes on', async () => {
    const [old, mine] = await sessionsOf(2);
    const oldId = (await list(mine!)).json<Page>().items.find((s) => !s.current)!.id;
    const res = await revoke(mine!, oldId);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await alive(old!)).toBe(false);
    expect(await alive(mine!)).toBe(true);
    expect((await list(mine!)).json<Page>().items.map((s) => s.current)).toEqual([true]);
    expectAdminError(await revoke(mine!, oldId), 404, 'NOT_FOUND');
  });

  it('signs the current session out too, clearing its cookie', async () => {
    const [mine] = await sessionsOf(1);
    const ownId = (await list(mine!)).json<Page>().items[0]!.id;
    const res = await revoke(mine!, ownId);
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toMatch(/^patron_session=;/);
    expect(await alive(mine!)).toBe(false);
  });

  it("answers 404 for another user's session and leaves it signed in, whatever the caller's role", async () => {
    const [victim] = await sessionsOf(1, 'analyst');
    const [owner] = await sessionsOf(1, 'owner');
    const victimId = (await list(victim!)).json<Page>().items[0]!.id;
    expectAdminError(await revoke(owner!, victimId), 404, 'NOT_FOUND');
    expect(await alive(victim!)).toBe(true);
  });

  it('is open to a user limited to a shop, and refuses a revoke without the CSRF token', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const [old, mine] = await sessionsOf(2, 'analyst', [shopId]);
    const items = (await list(mine!)).json<Page>().items;
    expect(items).toHaveLength(2);
    expectAdminError(await revoke(mine!, items[1]!.id, { cookie: mine!.cookie }), 403, 'FORBIDDEN');
    expect(await alive(old!)).toBe(true);
  });

  it('refuses the admin token (it has no sessions) and bad parameters', async () => {
    expectAdminError(await t.app.inject({ method: 'GET', url: '/admin/v1/session/sessions', headers: t.adminHeaders }), 403, 'FORBIDDEN');
    const [mine] = await sessionsOf(1);
    for (const query of ['?limit=0', '?limit=201', '?cursor=zzz', '?cursor=WzEsMl0', '?other=1']) {
      expectAdminError(await list(mine!, query), 422, 'VALIDATION_FAILED');
    }
    expectAdminError(await revoke(mine!, 'short'), 422, 'VALIDATION_FAILED');
    expectAdminError(await t.app.inject({ method: 'GET', url: '/admin/v1/session/sessions' }), 401, 'UNAUTHORIZED');
  });
});
