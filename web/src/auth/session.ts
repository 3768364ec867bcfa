import { useQuery, useQueryClient } from '@tanstack/react-query';
import { setCsrfToken, toApiError } from '../api/client';

/**
 * The signed-in session (COMMON35 contract, admin-api.md "Admin users"). Until the session
 * routes are part of the generated schema these calls go through fetch with the contract's
 * shapes; they move to the typed client once the users work is merged.
 */
export type Role = 'owner' | 'admin' | 'marketer' | 'analyst';
export interface SessionUser {
  readonly id: number;
  readonly email: string;
  readonly role: Role;
  readonly shops: readonly string[] | null;
  readonly status: 'active' | 'invited';
}
export interface SessionAnswer {
  readonly user: SessionUser;
  readonly csrf_token: string;
}
export interface Invitation {
  readonly email: string | null;
  readonly role: Role;
}

export const SESSION_KEY = ['session'] as const;

async function call<T>(method: string, path: string, body?: unknown): Promise<T | null> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const parsed: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response, parsed);
  return parsed as T;
}

/** The current session, or null when nobody is signed in (401). */
export async function readSession(): Promise<SessionAnswer | null> {
  try {
    const answer = await call<SessionAnswer>('GET', '/admin/v1/session');
    setCsrfToken(answer?.csrf_token ?? null);
    return answer;
  } catch (error) {
    if (error instanceof Error && 'status' in error && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export async function signIn(email: string, password: string): Promise<SessionAnswer> {
  const answer = (await call<SessionAnswer>('POST', '/admin/v1/session', { email, password })) as SessionAnswer;
  setCsrfToken(answer.csrf_token);
  return answer;
}

export async function readInvitation(token: string): Promise<Invitation> {
  return (await call<Invitation>('GET', `/admin/v1/invitations/${encodeURIComponent(token)}`)) as Invitation;
}

export async function acceptInvitation(token: string, body: { email?: string; password: string }): Promise<SessionAnswer> {
  const answer = (await call<SessionAnswer>('POST', `/admin/v1/invitations/${encodeURIComponent(token)}`, body)) as SessionAnswer;
  setCsrfToken(answer.csrf_token);
  return answer;
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: readSession, staleTime: 60_000, retry: false });
}

/** Signs out on the server, then forgets every cached answer of this user. */
export function useSignOut(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    const token = client.getQueryData<SessionAnswer | null>(SESSION_KEY)?.csrf_token;
    await fetch('/admin/v1/session', {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: token ? { 'x-csrf-token': token } : {},
    }).catch(() => undefined);
    setCsrfToken(null);
    client.clear();
    client.setQueryData(SESSION_KEY, null);
  };
}
