import fs from 'node:fs';
/**
 * The seeding side of the browser tests: the admin API with the admin token of the Patron
 * the global setup started, and the public API as an SDK would call it.
 */
export const BASE_URL = requireEnv('PATRON_BROWSER_BASE_URL');
const ADMIN_TOKEN = requireEnv('PATRON_BROWSER_ADMIN_TOKEN');

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with npm run test:browser`);
  return value;
}

/**
 * Moves the served Patron's clock (and its job thread's) on by `ms`, for the rest of the run:
 * a chain's wait passes in the time the server takes to reread the file (at most 200 ms) and
 * the job runner's next look for due work (1 s). Tests share the server, so the clock only
 * ever moves forward, and a test never assumes the date it shows.
 */
export async function advanceServerClock(ms: number): Promise<void> {
  const file = requireEnv('PATRON_BROWSER_CLOCK_FILE');
  const current = Number((await fs.promises.readFile(file, 'utf8')).trim()) || 0;
  await fs.promises.writeFile(`${file}.tmp`, String(current + ms));
  await fs.promises.rename(`${file}.tmp`, file);
}

/**
 * One call to Patron as the tests' seeding makes it: the admin token on an /admin/ path, the
 * body as JSON; anything but a 2xx throws with the status and the answer.
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      ...(path.startsWith('/admin/') ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface SeededShop {
  readonly shop_id: string;
  readonly shop_secret: string;
  readonly name: string;
}

async function admin<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE_URL}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function createShop(name: string): Promise<SeededShop> {
  const res = await admin<SeededShop>('POST', '/shops', { name, currency: 'RUB', timezone: 'Europe/Moscow' });
  if (res.status !== 201) throw new Error(`POST /admin/v1/shops answered ${res.status}`);
  return res.body;
}

let userCount = 0;

type Role = 'owner' | 'admin' | 'marketer' | 'analyst';

function newEmail(): string {
  userCount += 1;
  return `browser-${Date.now()}-${userCount}@example.org`;
}

/** A user with a password (admin-api.md "Admin users"), who can sign in at once. */
export async function createUser(role: Role = 'owner', shops: string[] | null = null): Promise<{ email: string; password: string }> {
  const email = newEmail();
  const password = `pw-${userCount}-correct-horse-battery`;
  const res = await admin('POST', '/users', { email, password, role, shops });
  if (res.status !== 201) throw new Error(`POST /admin/v1/users answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { email, password };
}

/** A user invited without a password: the answer's one-time `invite_url`. */
export async function inviteUser(role: Role): Promise<{ email: string; inviteUrl: string }> {
  const email = newEmail();
  const res = await admin<{ invite_url?: string }>('POST', '/users', { email, role });
  if (res.status !== 201 || !res.body.invite_url)
    throw new Error(`POST /admin/v1/users answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { email, inviteUrl: res.body.invite_url };
}

/** POST /push/custom (interface.md §1) with an email as the identifier: what an SDK sends. */
export async function pushCustom(shopId: string, event: string): Promise<{ status: number; body: { status?: string } }> {
  const res = await fetch(`${BASE_URL}/push/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shopId, email: 'kate@example.org', event, label: 'browser-test' }),
  });
  return { status: res.status, body: (await res.json()) as { status?: string } };
}

/** Whether the public API takes a shop secret (GET /products/categories needs shop_id and shop_secret). */
export async function secretWorks(shopId: string, secret: string): Promise<boolean> {
  const query = new URLSearchParams({ shop_id: shopId, shop_secret: secret });
  const res = await fetch(`${BASE_URL}/products/categories?${query.toString()}`);
  return res.status === 200;
}
