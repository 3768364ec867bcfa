import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type MailingPath = '/admin/v1/shops/{shop_id}/mailings/transactional/{code}';
export type Mailing = paths[MailingPath]['get']['responses'][200]['content']['application/json'];
export type PutMailingBody = paths[MailingPath]['put']['requestBody']['content']['application/json'];

/** Mailings per page of the list. */
export const MAILINGS_PAGE = 50;

export const mailingKeys = {
  all: (shopId: string) => ['shops', shopId, 'mailings', 'transactional'] as const,
  list: (shopId: string) => ['shops', shopId, 'mailings', 'transactional', 'list'] as const,
  one: (shopId: string, code: string) => ['shops', shopId, 'mailings', 'transactional', 'one', code] as const,
};

/** The shop's transactional mailings by code, a page at a time (keyset on the code: `after`/`next_after`). */
export function useMailings(shopId: string) {
  return useInfiniteQuery({
    queryKey: mailingKeys.list(shopId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/mailings/transactional', {
          params: { path: { shop_id: shopId }, query: { limit: MAILINGS_PAGE, ...(pageParam !== undefined && { after: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_after ?? undefined,
  });
}

export function useMailing(shopId: string, code: string) {
  return useQuery({
    queryKey: mailingKeys.one(shopId, code),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/mailings/transactional/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
}

/** Creates or replaces a mailing (PUT by code); the list and the mailing are fetched again. */
export function useSaveMailing(shopId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: PutMailingBody }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/mailings/transactional/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: (saved) => {
      client.setQueryData(mailingKeys.one(shopId, saved.code), saved);
      void client.invalidateQueries({ queryKey: mailingKeys.list(shopId) });
    },
  });
}

export function useDeleteMailing(shopId: string, code: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/admin/v1/shops/{shop_id}/mailings/transactional/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: mailingKeys.one(shopId, code) });
      void client.invalidateQueries({ queryKey: mailingKeys.list(shopId) });
    },
  });
}
