import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import {
  deepRequests,
  hugeRequests,
  invalidUtf8Requests,
  nulRequests,
  seededRandom,
  toFuzzRoutes,
  type Credentials,
  type FuzzRequest,
  type FuzzRoute,
} from './fuzz-requests.js';

/**
 * Every public and admin route of the built app (collected as the app registers them),
 * sent NUL characters in every parameter position, text that is not UTF-8, 10,000-level
 * nesting, 100,000-element arrays and huge strings (docs/input.md). No answer may be a
 * 5xx; every error body is the scope's envelope with a sentence of ours, never an
 * internal; a NUL that reaches a scope's edge is refused there with 422 naming it.
 * On each database of the matrix: PostgreSQL is where a NUL used to fail a query.
 */

const SEED = 20_261_125;

/** Words of internals an error body must never show. */
const INTERNALS =
  /node_modules|\/src\/|\.ts:\d|\.js:\d|\bat [\w.<>]+ \(|SQLITE|sqlite3|postgres|kysely|syntax error|violates|TypeError|RangeError|ReferenceError|Cannot read|is not a function|Maximum call stack|invalid byte sequence|unsupported Unicode|FST_/i;

interface Failure {
  readonly request: string;
  readonly status: number;
  readonly problem: string;
  readonly body: string;
}

describe.each(TEST_DIALECTS)('input fuzz on %s', (dialect) => {
  let t: TestApp;
  const registered: RouteOptions[] = [];
  let routes: FuzzRoute[] = [];
  let credentials: Credentials;

  beforeAll(async () => {
    t = await createTestApp({ dialect, onRoute: (route) => registered.push(route) });
    await t.app.ready();
    const shop = await createShopFixture(t.app.services);
    const init = await t.app.inject({ method: 'GET', url: `/init?shop_id=${shop.shopId}` });
    const { did, sid } = init.json<{ did: string; sid: string }>();
    credentials = { shopId: shop.shopId, secret: shop.secret, did, sid, adminAuthorization: t.adminHeaders.authorization };
    routes = toFuzzRoutes(registered);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('finds the public and admin routes of the app', () => {
    const scopes = new Set(routes.map((route) => route.scope));
    expect(scopes).toEqual(new Set(['public', 'admin', 'other']));
    expect(routes.find((r) => r.method === 'POST' && r.url === '/push')?.scope).toBe('public');
    expect(routes.find((r) => r.method === 'POST' && r.url === '/admin/v1/shops')?.scope).toBe('admin');
  });

  async function send(requests: readonly FuzzRequest[]): Promise<Failure[]> {
    const failures: Failure[] = [];
    for (const fuzz of requests) {
      const response = await t.app.inject({
        method: fuzz.method as 'GET',
        url: fuzz.url,
        headers: fuzz.headers,
        ...(fuzz.payload === undefined ? {} : { payload: fuzz.payload }),
      });
      const problem = judge(fuzz, response.statusCode, response.body, response.headers['content-type']);
      if (problem) {
        failures.push({ request: fuzz.label, status: response.statusCode, problem, body: response.body.slice(0, 300) });
      }
    }
    return failures;
  }

  function judge(fuzz: FuzzRequest, status: number, body: string, type: unknown): string | undefined {
    if (status >= 500) return 'a 5xx';
    if (fuzz.expectTextRule422 && status !== 422) return 'the text rule did not answer 422';
    if (status < 400) return undefined;
    // Routes outside both scopes that a browser or mail client opens (the message links
    // /m/…) answer a plain page; they must still name no internals.
    if (fuzz.scope === 'other' && typeof type === 'string' && /^text\/(plain|html)/.test(type)) {
      return INTERNALS.test(body) ? 'an error body that names internals' : undefined;
    }
    if (typeof type !== 'string' || !type.startsWith('application/json')) return 'an error body that is not JSON';
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return 'an error body that is not JSON';
    }
    if (INTERNALS.test(body)) return 'an error body that names internals';
    // Routes outside both scopes (/docs, /images …) have envelopes of their own.
    if (fuzz.scope === 'other') return undefined;
    const message = messageOf(parsed, fuzz.url.startsWith('/admin/'));
    if (message === undefined) return 'an error body outside the scope’s envelope';
    if (fuzz.expectTextRule422 && !/NUL character|not valid UTF-8/.test(message)) return 'a 422 that does not name the text rule';
    return undefined;
  }

  function cases(build: (route: FuzzRoute, random: () => number) => FuzzRequest[]): FuzzRequest[] {
    const random = seededRandom(SEED);
    return routes.filter((route) => route.scope !== 'other' || route.method === 'GET').flatMap((route) => build(route, random));
  }

  it('refuses a NUL in every parameter position with 422 naming it, and never answers 5xx', async () => {
    const requests = cases((route, random) => nulRequests({ route, credentials }, random));
    expect(requests.length).toBeGreaterThan(routes.length * 5);
    expect(await send(requests)).toEqual([]);
  }, 120_000);

  it('answers text that is not UTF-8 without a 5xx, lone surrogates with 422', async () => {
    expect(await send(cases((route) => invalidUtf8Requests({ route, credentials })))).toEqual([]);
  }, 120_000);

  it('answers 10,000-level nesting without a 5xx', async () => {
    expect(await send(cases((route) => deepRequests({ route, credentials })))).toEqual([]);
  }, 120_000);

  it('answers 100,000-element arrays and huge strings without a 5xx', async () => {
    expect(await send(cases((route) => hugeRequests({ route, credentials })))).toEqual([]);
  }, 120_000);
});

/** The error sentence in the admin envelope `{"error":{"code","message"}}` or a public one. */
function messageOf(body: unknown, admin: boolean): string | undefined {
  const object = body as { error?: { code?: unknown; message?: unknown }; payload?: { message?: unknown } } | null;
  if (admin) {
    return typeof object?.error?.code === 'string' && typeof object.error.message === 'string' ? object.error.message : undefined;
  }
  const family = object as { status?: unknown; success?: unknown } | null;
  if (family?.status !== 'error' && family?.success !== false) return undefined;
  return typeof object?.payload?.message === 'string' ? object.payload.message : undefined;
}
