import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken, unwrap } from '../api/client';
import type { paths } from '../api/schema';

/**
 * The signed-in session (docs/admin-users.md): GET /admin/v1/session answers the user and
 * the CSRF token that every state-changing call then carries (api/client.ts).
 */
export type SessionAnswer = paths['/admin/v1/session']['get']['responses'][200]['content']['application/json'];
export type SessionUser = SessionAnswer['user'];
export type Role = SessionUser['role'];
export type Invitation = paths['/admin/v1/invitations/{token}']['get']['responses'][200]['content']['application/json'];

export const SESSION_KEY = ['session'] as const;

/** The current session, or null when nobody is signed in (401). */
export async function readSession(): Promise<SessionAnswer | null> {
  try {
    const answer = await unwrap(api.GET('/admin/v1/session'));
    setCsrfToken(answer.csrf_token);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export async function signIn(email: string, password: string): Promise<SessionAnswer> {
  const answer = await unwrap(api.POST('/admin/v1/session', { body: { email, password } }));
  setCsrfToken(answer.csrf_token);
  return answer;
}

export function readInvitation(token: string): Promise<Invitation> {
  return unwrap(api.GET('/admin/v1/invitations/{token}', { params: { path: { token } } }));
}

export async function acceptInvitation(token: string, body: { email?: string; password: string }): Promise<SessionAnswer> {
  const answer = await unwrap(api.POST('/admin/v1/invitations/{token}', { params: { path: { token } }, body }));
  setCsrfToken(answer.csrf_token);
  return answer;
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: readSession, staleTime: 60_000, retry: false });
}

/** Signs out on the server (the CSRF token goes with it), then forgets every cached answer of this user. */
export function useSignOut(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await api.DELETE('/admin/v1/session').catch(() => undefined);
    setCsrfToken(null);
    client.clear();
    client.setQueryData(SESSION_KEY, null);
  };
}
