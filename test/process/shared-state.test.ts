import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, type DbOptions } from '../../src/db/create-db.js';
import { LISTENER_APPLICATION_NAME } from '../../src/modules/system/settings-notifications.js';
import { ACTIVE_POPUPS_TTL_MS } from '../../src/modules/popups/offers.service.js';
import { SHOP_CACHE_TTL_MS } from '../../src/modules/shops/shops.service.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';
import { CliProcess, databaseEnv, type Env } from './cli-harness.js';

/**
 * What two API processes on one database share (docs/scaling.md, "Per-process state"):
 * an admin change made through one reaches the other's caches as it commits
 * (PostgreSQL: docs/settings-caches.md), also after its listener lost its connection;
 * an admin UI session made on one is valid on the other, and a sign-out ends it on both.
 */

const ADMIN_TOKEN = 'shared-state-admin-token-0123456789';

describe.each(TEST_DIALECTS)('two patron serve --no-worker on one %s database', (dialect) => {
  let options: DbOptions;
  let db: DbHandle;
  let a: { node: CliProcess; url: string };
  let b: { node: CliProcess; url: string };

  beforeAll(async () => {
    options = await freshDbOptions(dialect);
    const env: Env = {
      ...databaseEnv(options),
      PORT: '0',
      HOST: '127.0.0.1',
      PATRON_SECRET_KEY: 'c'.repeat(64),
      PATRON_ADMIN_TOKEN: ADMIN_TOKEN,
      PATRON_INSECURE_TEST_PASSWORD_HASHING: 'on',
    };
    // One after the other: the second finds the database migrated.
    const first = CliProcess.start(['serve', '--no-worker'], env);
    a = { node: first, url: await first.waitUntilServing(60_000) };
    const second = CliProcess.start(['serve', '--no-worker'], env);
    b = { node: second, url: await second.waitUntilServing(60_000) };
    db = createDb(options);
  }, 150_000);
  afterAll(async () => {
    a?.node.kill();
    b?.node.kill();
    await db?.destroy();
    await removeDatabase(options);
  });

  const admin = async (base: string, method: string, path: string, body?: object) => {
    const response = await fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const newShop = async () => (await admin(a.url, 'POST', '/shops', { name: 'Shared state' })).shop_id as string;
  /** A new device's GET /init on `base`: its status and whether its answer carries a popup. */
  const init = async (base: string, shopId: string) => {
    const response = await fetch(`${base}/init?shop_id=${shopId}`);
    const body = (await response.json()) as { popup?: unknown };
    return { status: response.status, popup: body.popup !== undefined };
  };
  /** A counter or gauge of a process's /metrics; undefined when the process does not export it. */
  const metric = async (base: string, name: string) => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    return line ? Number(line[1]) : undefined;
  };
  const setShopActiveBehindTheirBack = (shopId: string, active: 0 | 1) =>
    db.db.updateTable('shops').set({ active }).where('shop_id', '=', shopId).execute();

  /**
   * Runs `trial`, which primes B's cache at the time it returns, until one run ends within
   * `ttlMs` of that (three runs at most): only then does B's answer prove that a drop, not
   * the cache's expiry, brought the change. A busy machine may make one run too slow.
   */
  const withinCacheLife = async (ttlMs: number, trial: () => Promise<number>) => {
    for (let run = 0; run < 3; run++) {
      const primed = await trial();
      if (Date.now() - primed < ttlMs) return;
    }
    throw new Error(`no run of the trial ended within ${ttlMs} ms of priming the cache`);
  };
  const heardBy = (base: string) => metric(base, 'patron_settings_changes_heard_total') as Promise<number>;
  const waitUntilHeard = (base: string, before: number) =>
    waitFor(async () => (await heardBy(base)) > before, { what: 'the change to be heard', intervalMs: 10 });

  describe.skipIf(dialect !== 'postgres')('admin changes', () => {
    it('both listen, each on a connection of its own named after its process', async () => {
      expect(await metric(a.url, 'patron_settings_listener_connected')).toBe(1);
      expect(await metric(b.url, 'patron_settings_listener_connected')).toBe(1);
      const names = await sql<{ application_name: string }>`select application_name from pg_stat_activity
        where datname = current_database() and application_name like ${`${LISTENER_APPLICATION_NAME}:%`}`.execute(db.db);
      expect(names.rows.map((r) => r.application_name).sort()).toEqual(
        [a.node.pid, b.node.pid].map((pid) => `${LISTENER_APPLICATION_NAME}:${pid}`).sort(),
      );
    });

    it("a popup made active through A is in B's next answer once B heard of it, long before B's cache would expire", async () => {
      await withinCacheLife(ACTIVE_POPUPS_TTL_MS, async () => {
        const shopId = await newShop();
        const heard = await heardBy(b.url);
        // B reads the shop's active popups (none) into its cache now.
        const primed = Date.now();
        expect(await init(b.url, shopId)).toEqual({ status: 200, popup: false });
        await admin(a.url, 'POST', `/shops/${shopId}/popups`, {
          name: 'Sale',
          status: 'active',
          position: 'centered',
          html: '<p>Sale</p>',
        });
        await waitUntilHeard(b.url, heard);
        expect(await init(b.url, shopId)).toEqual({ status: 200, popup: true });
        return primed;
      });
    });

    it('a shop deactivated through A is refused by B at its next request once B heard of it', async () => {
      await withinCacheLife(SHOP_CACHE_TTL_MS, async () => {
        const shopId = await newShop();
        const heard = await heardBy(b.url);
        const primed = Date.now();
        expect((await init(b.url, shopId)).status).toBe(200);
        await admin(a.url, 'PATCH', `/shops/${shopId}`, { active: false });
        await waitUntilHeard(b.url, heard);
        expect((await init(b.url, shopId)).status).toBe(403);
        return primed;
      });
    });

    it("B serves from its cache what changed without a word: the tests above are the notification's doing", async () => {
      await withinCacheLife(SHOP_CACHE_TTL_MS, async () => {
        const shopId = await newShop();
        const primed = Date.now();
        expect((await init(b.url, shopId)).status).toBe(200);
        await setShopActiveBehindTheirBack(shopId, 0);
        const stale = await init(b.url, shopId);
        if (Date.now() - primed < SHOP_CACHE_TTL_MS) expect(stale.status).toBe(200);
        return primed;
      });
    });

    it('a listener whose backend is terminated reconnects, and drops the caches that may have missed a change meanwhile', async () => {
      await withinCacheLife(SHOP_CACHE_TTL_MS, async () => {
        const shopId = await newShop();
        const connections = (await metric(b.url, 'patron_settings_listener_connections_total'))!;
        const primed = Date.now();
        expect((await init(b.url, shopId)).status).toBe(200);
        // A change B cannot hear of: as one notified while its connection was away would be.
        await setShopActiveBehindTheirBack(shopId, 0);
        const terminated = await sql<{ done: boolean }>`select pg_terminate_backend(pid) as done from pg_stat_activity
          where datname = current_database() and application_name = ${`${LISTENER_APPLICATION_NAME}:${b.node.pid}`}`.execute(db.db);
        expect(terminated.rows).toEqual([{ done: true }]);
        await waitFor(async () => (await metric(b.url, 'patron_settings_listener_connections_total'))! > connections, {
          what: 'B to reconnect',
          intervalMs: 10,
        });
        expect((await init(b.url, shopId)).status).toBe(403);
        return primed;
      });
      expect(await metric(b.url, 'patron_settings_listener_connected')).toBe(1);
      expect(await metric(a.url, 'patron_settings_listener_connections_total')).toBe(1);
      expect(b.node.stdout).toContain('Not listening for admin changes');
      expect(b.node.stdout).toContain('Listening for admin changes again');
    });
  });

  describe.skipIf(dialect !== 'sqlite')('admin changes on SQLite', () => {
    it('have no listener, and reach a second process on the file once its cache expires', async () => {
      expect(await metric(b.url, 'patron_settings_listener_connected')).toBeUndefined();
      const shopId = await newShop();
      expect((await init(b.url, shopId)).status).toBe(200);
      const changed = Date.now();
      await admin(a.url, 'PATCH', `/shops/${shopId}`, { active: false });
      expect((await init(a.url, shopId)).status).toBe(403);
      await waitFor(async () => (await init(b.url, shopId)).status === 403, { what: "B's cache to expire", timeoutMs: 10_000 });
      expect(Date.now() - changed).toBeLessThan(SHOP_CACHE_TTL_MS + 1_000);
    });
  });

  it('an admin UI session made on A is valid on B, CSRF token included, and signing out on A ends it on B', async () => {
    const email = `owner-${dialect}@example.org`;
    const password = 'correct horse battery';
    await admin(a.url, 'POST', '/users', { email, role: 'owner', password });
    const signIn = await fetch(`${a.url}/admin/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = /^(patron_session=[^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeDefined();
    const { csrf_token: csrf } = (await signIn.json()) as { csrf_token: string };
    const asUser = (base: string, method: string, path: string, body?: object) =>
      fetch(`${base}/admin/v1${path}`, {
        method,
        headers: { cookie: cookie!, 'x-csrf-token': csrf, ...(body && { 'content-type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body) }),
      });

    const onB = await asUser(b.url, 'GET', '/session');
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { user: { email: string } }).user.email).toBe(email);
    expect((await asUser(b.url, 'POST', '/shops', { name: 'Made on B' })).status).toBe(201);

    expect((await asUser(a.url, 'DELETE', '/session')).status).toBe(204);
    expect((await asUser(b.url, 'GET', '/session')).status).toBe(401);
    expect((await asUser(b.url, 'POST', '/shops', { name: 'Refused' })).status).toBe(401);
  });

  it('both stop cleanly on SIGTERM, their listeners closed with them', async () => {
    for (const { node } of [a, b]) node.signal('SIGTERM');
    for (const { node } of [a, b]) expect(await node.exit()).toBe(0);
    if (dialect !== 'postgres') return;
    const left = await sql`select pid from pg_stat_activity
      where datname = current_database() and application_name like ${`${LISTENER_APPLICATION_NAME}:%`}`.execute(db.db);
    expect(left.rows).toEqual([]);
  });
});
