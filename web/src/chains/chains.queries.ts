import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type Json<P extends keyof paths, M extends 'get' | 'put'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
type Body<P extends keyof paths, M extends 'put'> = paths[P][M] extends {
  requestBody: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type ChainBody = Json<'/admin/v1/shops/{shop_id}/chains/{code}', 'get'>;
export type PutChainBody = Body<'/admin/v1/shops/{shop_id}/chains/{code}', 'put'>;
export type Run = Json<'/admin/v1/shops/{shop_id}/chains/{code}/runs', 'get'>['runs'][number];
export type ChainStats = Json<'/admin/v1/shops/{shop_id}/chains/{code}/stats', 'get'>;
export type StepStats = ChainStats['steps'][number];
/** A send step's templates: the shape of a transactional mailing's, without its name (docs/chains.md "Steps"). */
export type MailingTemplates = Omit<Body<'/admin/v1/shops/{shop_id}/mailings/transactional/{code}', 'put'>, 'name'>;

export const chainKeys = {
  all: (shopId: string) => ['shops', shopId, 'chains'] as const,
  chain: (shopId: string, code: string) => ['shops', shopId, 'chains', code] as const,
  runs: (shopId: string, code: string) => ['shops', shopId, 'chains', code, 'runs'] as const,
  stats: (shopId: string, code: string) => ['shops', shopId, 'chains', code, 'stats'] as const,
};

export function useChains(shopId: string) {
  return useQuery({
    queryKey: chainKeys.all(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/chains', { params: { path: { shop_id: shopId } } })),
  });
}

export function useChain(shopId: string, code: string) {
  return useQuery({
    queryKey: chainKeys.chain(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/chains/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
}

export const RUNS_PAGE = 25;

export type RunsFilter = { readonly email?: string; readonly phone?: string };

/** The chain's runs, newest first, a page at a time; with an email or phone, that profile's runs. */
export function useRuns(shopId: string, code: string, filter: RunsFilter) {
  return useInfiniteQuery({
    queryKey: [...chainKeys.runs(shopId, code), filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/chains/{code}/runs', {
          params: {
            path: { shop_id: shopId, code },
            query:
              filter.email !== undefined || filter.phone !== undefined
                ? filter
                : { limit: RUNS_PAGE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useChainStats(shopId: string, code: string, enabled: boolean) {
  return useQuery({
    queryKey: chainKeys.stats(shopId, code),
    enabled,
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/chains/{code}/stats', { params: { path: { shop_id: shopId, code } } })),
  });
}

export function useCustomEventCodes(shopId: string) {
  return useQuery({
    queryKey: ['shops', shopId, 'custom-events'] as const,
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/custom-events', { params: { path: { shop_id: shopId } } })),
  });
}

/** PUT …/chains/{code}: the first creates the chain, each later one writes its next version. */
export function useSaveChain(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { readonly code: string; readonly body: PutChainBody }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/chains/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: (chain) => {
      queryClient.setQueryData(chainKeys.chain(shopId, chain.code), chain);
      void queryClient.invalidateQueries({ queryKey: chainKeys.all(shopId) });
    },
  });
}
