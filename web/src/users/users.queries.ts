import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

export type User = paths['/admin/v1/users/{id}']['get']['responses'][200]['content']['application/json'];
export type ApiToken = paths['/admin/v1/users/{id}/tokens']['get']['responses'][200]['content']['application/json']['items'][number];
export type UserRole = User['role'];

export const ROLES: readonly UserRole[] = ['owner', 'admin', 'marketer', 'analyst'];

export const userKeys = {
  all: ['users'] as const,
  one: (id: number) => ['users', id] as const,
  tokens: (id: number) => ['users', id, 'tokens'] as const,
};

/** GET /admin/v1/users answers the whole team at once (admin-api.md "Admin users": no paging). */
export function useUsers(enabled = true) {
  return useQuery({ queryKey: userKeys.all, queryFn: () => unwrap(api.GET('/admin/v1/users')), enabled });
}

export function useUser(id: number) {
  return useQuery({
    queryKey: userKeys.one(id),
    queryFn: () => unwrap(api.GET('/admin/v1/users/{id}', { params: { path: { id: String(id) } } })),
    enabled: Number.isInteger(id) && id > 0,
  });
}
