import { expect } from 'vitest';
import type { AdminRole } from '../../src/modules/admin-users/index.js';
import type { TestApp } from './app.js';

export const PASSWORD = 'correct horse battery';

let counter = 0;
export function uniqueEmail(name = 'user'): string {
  counter += 1;
  return `${name}.${counter}.${Date.now()}@example.org`;
}

export interface SignedIn {
  readonly userId: number;
  readonly email: string;
  readonly cookie: string;
  readonly csrf: string;
  /** Headers of a state-changing request with this session: the cookie and its CSRF token. */
  readonly headers: { cookie: string; 'x-csrf-token': string };
}

/** The patron_session id of a response's Set-Cookie. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const id = /^patron_session=([\w-]+);/.exec(header ?? '')?.[1];
  expect(id, `Set-Cookie: ${String(header)}`).toBeDefined();
  return `patron_session=${id}`;
}

export async function createUser(t: TestApp, role: AdminRole, shops: string[] | null = null, email = uniqueEmail(role)): Promise<number> {
  const { user } = await t.app.services.adminAccounts.createUser({ email, password: PASSWORD, role, shops });
  return user.id;
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<SignedIn> {
  const response = await t.app.inject({ method: 'POST', url: '/admin/v1/session', payload: { email, password } });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ user: { id: number }; csrf_token: string }>();
  const cookie = sessionCookieOf(response.headers['set-cookie']);
  return { userId: body.user.id, email, cookie, csrf: body.csrf_token, headers: { cookie, 'x-csrf-token': body.csrf_token } };
}

/** A new user of the role, signed in. */
export async function signedInUser(t: TestApp, role: AdminRole, shops: string[] | null = null): Promise<SignedIn> {
  const email = uniqueEmail(role);
  await createUser(t, role, shops, email);
  return signIn(t, email);
}
