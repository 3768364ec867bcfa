import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type AuditPage = paths['/admin/v1/audit']['get']['responses'][200]['content']['application/json'];
export type AuditEntry = AuditPage['items'][number];

export interface AuditFilter {
  readonly userId?: number;
  readonly shopId?: string;
  readonly action?: string;
}

/** The audit log, newest first, a page at a time by the server's keyset cursor (docs/audit-log.md "Reading"). */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: ['audit', filter] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/audit', {
          params: {
            query: {
              limit: 50,
              ...(filter.userId === undefined ? {} : { user_id: filter.userId }),
              ...(filter.shopId === undefined ? {} : { shop_id: filter.shopId }),
              ...(filter.action === undefined ? {} : { action: filter.action }),
              ...(pageParam === undefined ? {} : { cursor: pageParam }),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/**
 * What a person types as the action filter, as the API takes it: `shop.update` is exact,
 * `shop.*` every action under shop, and `shop.` or `shop.secret.` the same as with the star.
 */
export function actionFilter(typed: string): string | undefined {
  const value = typed.trim().toLowerCase();
  if (value === '') return undefined;
  return value.endsWith('.') ? `${value}*` : value;
}

/** before/after as indented JSON text, shown as text (never HTML). */
export function formatJson(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value, null, 2);
}
