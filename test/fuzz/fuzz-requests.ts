import type { RouteOptions } from 'fastify';

/**
 * The hostile requests of the input fuzz test (input.fuzz.test.ts), built from the
 * routes the app registered: no route list is written down here, so a route added later
 * is fuzzed as soon as it exists. Deterministic: a seeded generator picks where each
 * bad value goes, so a failure repeats exactly.
 */

/** mulberry32: small, seeded, good enough to spread cases over positions. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Scope = 'public' | 'admin' | 'other';

export interface FuzzRoute {
  readonly method: string;
  readonly url: string;
  readonly scope: Scope;
  /** Parameter names the route documents (its querystring and body schemas), top level. */
  readonly names: readonly string[];
  /** Names documented as arrays: where a huge array goes. */
  readonly arrayNames: readonly string[];
  /** The body is a stream the route reads itself (the feed upload): its bytes are the route's to judge. */
  readonly rawBody: boolean;
}

export interface Credentials {
  readonly shopId: string;
  readonly secret: string;
  readonly did: string;
  readonly sid: string;
  readonly adminAuthorization: string;
}

/** One request as app.inject takes it, with what it probes. */
export interface FuzzRequest {
  readonly label: string;
  readonly scope: Scope;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Buffer;
  /** The text rule must refuse it with 422 (a NUL the scope's edge sees). */
  readonly expectTextRule422: boolean;
}

const SKIPPED_METHODS = new Set(['HEAD', 'OPTIONS']);

/** Parameter names many public routes read, besides those their schemas document. */
const COMMON_PUBLIC_NAMES = ['item_id', 'search_query', 'stream', 'email', 'phone', 'code', 'event', 'items', 'id', 'name'];
const COMMON_ADMIN_NAMES = ['name', 'code', 'email', 'phone', 'limit'];

export function toFuzzRoutes(routes: readonly RouteOptions[]): FuzzRoute[] {
  const seen = new Set<string>();
  const out: FuzzRoute[] = [];
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      if (SKIPPED_METHODS.has(method) || seen.has(key)) continue;
      seen.add(key);
      const scope: Scope = route.url.startsWith('/admin/v1/')
        ? 'admin'
        : (route.config as { envelope?: unknown } | undefined)?.envelope !== undefined
          ? 'public'
          : 'other';
      const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
      const documented = [...propertiesOf(schema.querystring), ...propertiesOf(schema.body)];
      const common = scope === 'admin' ? COMMON_ADMIN_NAMES : COMMON_PUBLIC_NAMES;
      const names = [...new Set([...documented.map(([name]) => name), ...common])].filter((n) => !CREDENTIAL_NAMES.has(n));
      const arrayNames = [...new Set(documented.filter(([, type]) => type === 'array').map(([name]) => name))];
      const rawBody = route.url.endsWith('/feed') && method === 'PUT';
      out.push({ method, url: route.url, scope, names, arrayNames: arrayNames.length > 0 ? arrayNames : ['items'], rawBody });
    }
  }
  // Destructive admin calls last, so that the shop the others use lives as long as possible.
  return out.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}

const CREDENTIAL_NAMES = new Set(['shop_id', 'shop_secret', 'did', 'sid', 'seance']);

function propertiesOf(schema: unknown): Array<[string, string | undefined]> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return [];
  return Object.entries(properties).map(([name, property]) => [name, typeof property?.type === 'string' ? property.type : undefined]);
}

/** The route's path with its parameters filled with plausible values (or `override` for one of them). */
export function fillPath(url: string, credentials: Credentials, override?: { index: number; raw: string }): string {
  let index = -1;
  return url
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':') && segment !== '*') return segment;
      index += 1;
      if (override && override.index === index) return override.raw;
      return encodeURIComponent(plausibleParam(segment.replace(/^:/, ''), credentials));
    })
    .join('/');
}

export function pathParamCount(url: string): number {
  return url.split('/').filter((segment) => segment.startsWith(':') || segment === '*').length;
}

function plausibleParam(name: string, credentials: Credentials): string {
  if (/^shop_?id$/i.test(name)) return credentials.shopId;
  if (name === 'hash') return 'a'.repeat(64);
  if (name === 'file') return '120.jpg';
  if (name === 'did') return credentials.did;
  if (/id$/i.test(name)) return '1';
  return 'main';
}

function publicCredentials(credentials: Credentials): Record<string, string> {
  return { shop_id: credentials.shopId, shop_secret: credentials.secret, did: credentials.did, sid: credentials.sid };
}

function queryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';

interface BuildContext {
  readonly route: FuzzRoute;
  readonly credentials: Credentials;
}

/**
 * A request carrying the credentials and `extraQuery` (already encoded) in the query
 * string, and `body` as the given content type.
 */
function request(
  context: BuildContext,
  label: string,
  options: { extraQuery?: string; body?: { type: string; payload: string | Buffer }; path?: string; expect422?: boolean },
): FuzzRequest {
  const { route, credentials } = context;
  const base = route.scope === 'admin' ? '' : queryString(publicCredentials(credentials));
  const query = [base, options.extraQuery ?? ''].filter((part) => part !== '').join('&');
  const path = options.path ?? fillPath(route.url, credentials);
  const headers: Record<string, string> = {};
  if (route.scope === 'admin') headers.authorization = credentials.adminAuthorization;
  if (options.body) headers['content-type'] = options.body.type;
  const bodyIsRaw = options.body !== undefined && route.rawBody;
  return {
    label: `${route.method} ${route.url} ${label}`,
    scope: route.scope,
    method: route.method,
    url: query === '' ? path : `${path}?${query}`,
    headers,
    ...(options.body ? { payload: options.body.payload } : {}),
    expectTextRule422: (options.expect422 ?? false) && route.scope !== 'other' && !bodyIsRaw,
  };
}

const json = (value: unknown) => ({ type: 'application/json', payload: JSON.stringify(value) });
const form = (payload: string) => ({ type: 'application/x-www-form-urlencoded', payload });

function multipart(fields: Record<string, string>): { type: string; payload: Buffer } {
  const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { type: `multipart/form-data; boundary=${boundary}`, payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`) };
}

/** Where a NUL may sit in a value: the generator picks one per request. */
const NUL_VALUES = ['a\u0000b', '\u0000', 'abc\u0000', '\u0000\u0000x'];
const NUL_VALUE = NUL_VALUES[0]!;

/**
 * A NUL in every parameter position: each documented or common name in the query
 * string and in each body type the scope reads (JSON, form, multipart), the NUL placed
 * by the generator; then in a nested value, an array element, a parameter name, a nested
 * name and each path parameter.
 */
export function nulRequests(context: BuildContext, random: () => number): FuzzRequest[] {
  const { route, credentials } = context;
  const out: FuzzRequest[] = [];
  const bodyPositions = hasBody(route.method) ? (route.scope === 'public' ? ['json', 'form', 'multipart'] : ['json']) : [];
  // The credentials too: a later query parameter and the body win over the ones the request carries.
  const credentialNames = route.scope === 'public' ? [...CREDENTIAL_NAMES] : [];
  for (const name of [...credentialNames, ...route.names]) {
    for (const position of ['query', ...bodyPositions]) {
      const value = NUL_VALUES[Math.floor(random() * NUL_VALUES.length)]!;
      const encoded = encodeURIComponent(value);
      const label = `NUL in ${name} (${position}, ${JSON.stringify(value)})`;
      if (position === 'query') {
        out.push(request(context, label, { extraQuery: `${encodeURIComponent(name)}=${encoded}`, expect422: true }));
      } else if (position === 'json') {
        out.push(request(context, label, { body: json({ [name]: value }), expect422: true }));
      } else if (position === 'form') {
        out.push(request(context, label, { body: form(`${encodeURIComponent(name)}=${encoded}`), expect422: true }));
      } else {
        out.push(request(context, label, { body: multipart({ [name]: value }), expect422: true }));
      }
    }
  }
  const name = route.names[Math.floor(random() * route.names.length)] ?? 'x';
  out.push(request(context, `NUL nested in ${name}[k]`, { extraQuery: `${name}%5Bk%5D=a%00`, expect422: true }));
  out.push(request(context, `NUL in the name ${name}`, { extraQuery: `${name}%00=1`, expect422: true }));
  if (hasBody(route.method) && route.scope === 'public') {
    out.push(request(context, `NUL in the form name ${name}`, { body: form(`${name}%00=1`), expect422: true }));
    out.push(request(context, `NUL in the multipart name ${name}`, { body: multipart({ [`${name}\u0000`]: '1' }), expect422: true }));
  }
  if (hasBody(route.method)) {
    out.push(request(context, `NUL nested in JSON ${name}`, { body: json({ [name]: { k: [1, NUL_VALUE] } }), expect422: true }));
    out.push(request(context, 'NUL in a JSON key', { body: json({ [`${name}\u0000`]: 1 }), expect422: true }));
    out.push(request(context, 'NUL in a nested JSON key', { body: json({ [name]: { 'k\u0000': 'v' } }), expect422: true }));
    // The records of an audience import are the import's to judge: one holding text that cannot be stored is skipped with its reason (docs/audience.md).
    const importRecords = route.method === 'POST' && route.url === '/import/audience' && name === 'audience';
    out.push(request(context, 'NUL in an array of objects', { body: json({ [name]: [{ id: NUL_VALUE }] }), expect422: !importRecords }));
  }
  if (route.method === 'GET' && route.scope === 'public') {
    // SDKs send JSON bodies on some GETs; a route that reads one must not fail on a NUL there.
    out.push(request(context, `NUL in a JSON body of a GET, in ${name}`, { body: json({ [name]: NUL_VALUE }) }));
  }
  for (let index = 0; index < pathParamCount(route.url); index += 1) {
    const path = fillPath(route.url, credentials, { index, raw: 'a%00b' });
    // A wildcard or an unmatched path is answered by another route (404): no 422 to expect there.
    out.push(request(context, `NUL in path parameter ${index}`, { path, expect422: !route.url.endsWith('*') }));
  }
  return out;
}

/** Text that is not UTF-8: bad escapes in the query string, raw bytes and lone surrogates in bodies. */
export function invalidUtf8Requests(context: BuildContext): FuzzRequest[] {
  const { route, credentials } = context;
  const name = route.names[0] ?? 'x';
  const out = [
    request(context, `invalid UTF-8 escape in ${name}`, { extraQuery: `${name}=%ff%fe` }),
    request(context, 'an encoded surrogate in the query', { extraQuery: `${name}=%ed%a0%80` }),
    request(context, 'invalid UTF-8 in a name', { extraQuery: '%c3%28=1' }),
  ];
  if (hasBody(route.method)) {
    const raw = Buffer.concat([Buffer.from(`{"${name}":"`), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('"}')]);
    out.push(request(context, 'raw invalid bytes in JSON', { body: { type: 'application/json', payload: raw } }));
    out.push(
      request(context, 'a lone surrogate escape in JSON', {
        body: { type: 'application/json', payload: `{"${name}":"\\ud800x","k\\udfff":1}` },
        expect422: true,
      }),
    );
    if (route.scope === 'public') out.push(request(context, 'invalid UTF-8 in a form', { body: form(`${name}=%ff`) }));
  }
  for (let index = 0; index < pathParamCount(route.url); index += 1) {
    out.push(
      request(context, `invalid UTF-8 in path parameter ${index}`, { path: fillPath(route.url, credentials, { index, raw: '%ff' }) }),
    );
  }
  return out;
}

/** Payloads built once: they are large, and the same for every route. */
export const DEEP_LEVELS = 10_000;
export const HUGE_ARRAY = 100_000;
const deepArray = `${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}`;
const deepObject = `${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}`;
const hugeNumbers = `[${new Array<string>(HUGE_ARRAY).fill('1').join(',')}]`;
const hugeStrings = `[${new Array<string>(HUGE_ARRAY).fill('"x"').join(',')}]`;
const hugeObjects = `[${new Array<string>(HUGE_ARRAY).fill('{"id":"1"}').join(',')}]`;
const hugeText = 'x'.repeat(1024 * 1024);

export function deepRequests(context: BuildContext): FuzzRequest[] {
  const { route } = context;
  const name = route.names[0] ?? 'x';
  const out = [request(context, 'query nested 1,000 levels', { extraQuery: `${name}${'%5Ba%5D'.repeat(1000)}=1` })];
  if (hasBody(route.method)) {
    out.push(
      request(context, `JSON array nested ${DEEP_LEVELS} levels`, {
        body: { type: 'application/json', payload: `{"${name}":${deepArray}}` },
      }),
      request(context, `JSON object nested ${DEEP_LEVELS} levels`, {
        body: { type: 'application/json', payload: `{"${name}":${deepObject}}` },
      }),
      request(context, 'a body that is nothing but nesting', { body: { type: 'application/json', payload: deepArray } }),
    );
    if (route.scope === 'public') {
      out.push(request(context, 'form nested 10,000 levels', { body: form(`${name}${'[a]'.repeat(DEEP_LEVELS)}=1`) }));
    }
  }
  return out;
}

export function hugeRequests(context: BuildContext): FuzzRequest[] {
  const { route } = context;
  const out: FuzzRequest[] = [];
  const name = route.names[0] ?? 'x';
  out.push(request(context, 'a 100 KB query value', { extraQuery: `${name}=${'y'.repeat(100 * 1024)}` }));
  out.push(request(context, 'a 100 KB parameter name', { extraQuery: `${'n'.repeat(100 * 1024)}=1` }));
  if (!hasBody(route.method)) return out;
  for (const arrayName of route.arrayNames) {
    for (const [kind, payload] of [
      ['numbers', hugeNumbers],
      ['strings', hugeStrings],
      ['objects', hugeObjects],
    ] as const) {
      out.push(
        request(context, `${arrayName} as ${HUGE_ARRAY} ${kind}`, {
          body: { type: 'application/json', payload: `{"${arrayName}":${payload}}` },
        }),
      );
    }
  }
  out.push(request(context, `${name} as a 1 MB string`, { body: json({ [name]: hugeText }) }));
  if (route.scope === 'public') {
    const list = route.arrayNames[0] ?? 'items';
    out.push(
      request(context, `${list}[] ${HUGE_ARRAY} times in a form`, {
        body: form(new Array<string>(HUGE_ARRAY).fill(`${list}%5B%5D=1`).join('&')),
      }),
    );
  }
  return out;
}
