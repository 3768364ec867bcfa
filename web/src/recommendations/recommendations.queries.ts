import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { Period } from '../dashboards/period';
import { customerOf, type PreviewCustomer, type PreviewRequest } from './preview';

type BlocksPath = '/admin/v1/shops/{shop_id}/recommendation-blocks/{code}';
export type Block = paths[BlocksPath]['get']['responses'][200]['content']['application/json'];
export type BlockBody = NonNullable<paths[BlocksPath]['put']['requestBody']>['content']['application/json'];
export type BlockStats =
  paths['/admin/v1/shops/{shop_id}/recommendation-blocks/{code}/stats']['get']['responses'][200]['content']['application/json'];
export type BlockPreview =
  paths['/admin/v1/shops/{shop_id}/recommendation-blocks/{code}/preview']['get']['responses'][200]['content']['application/json'];
export type PreviewItem = BlockPreview['items'][number];
export type ProductSuggestion =
  paths['/admin/v1/shops/{shop_id}/products']['get']['responses'][200]['content']['application/json']['items'][number];
export type ModelsStatus =
  paths['/admin/v1/shops/{shop_id}/recommendations/status']['get']['responses'][200]['content']['application/json'];

export const recommendationKeys = {
  blocks: (shopId: string) => ['shops', shopId, 'recommendation-blocks'] as const,
  block: (shopId: string, code: string) => ['shops', shopId, 'recommendation-blocks', code] as const,
  stats: (shopId: string, code: string, period: Period) =>
    ['shops', shopId, 'recommendation-blocks', code, 'stats', period.from, period.to] as const,
  preview: (shopId: string, code: string) => ['shops', shopId, 'recommendation-blocks', code, 'preview'] as const,
  status: (shopId: string) => ['shops', shopId, 'recommendations', 'status'] as const,
  // Under the catalog's products key, so that whatever refreshes the product lists refreshes these too.
  suggestions: (shopId: string, text: string) => ['shops', shopId, 'products', 'suggestions', text] as const,
};

/** Products offered while an offer id is typed in the preview. */
const SUGGESTIONS = 8;

/** Every block of the shop (the API answers them all at once, by code). */
export function useBlocks(shopId: string) {
  return useQuery({
    queryKey: recommendationKeys.blocks(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/recommendation-blocks', { params: { path: { shop_id: shopId } } })),
  });
}

export function useBlock(shopId: string, code: string) {
  return useQuery({
    queryKey: recommendationKeys.block(shopId, code),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/recommendation-blocks/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
}

/** A block's figures of a period; the last period's answer stays shown while the next loads. */
export function useBlockStats(shopId: string, code: string, period: Period | undefined) {
  return useQuery({
    queryKey: recommendationKeys.stats(shopId, code, period ?? { from: '', to: '' }),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/recommendation-blocks/{code}/stats', {
          params: { path: { shop_id: shopId, code }, query: { date_from: period?.from ?? '', date_to: period?.to ?? '' } },
        }),
      ),
    enabled: period !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** The stats' CSV, named as the server names it. */
export function statsCsv(shopId: string, code: string, period: Period): { readonly path: string; readonly filename: string } {
  const query = new URLSearchParams({ date_from: period.from, date_to: period.to });
  return {
    path: `/admin/v1/shops/${encodeURIComponent(shopId)}/recommendation-blocks/${encodeURIComponent(code)}/stats.csv?${query.toString()}`,
    filename: `recommendations-${code}-${period.from}-${period.to}.csv`,
  };
}

/** Creates or replaces a block whole (PUT). */
export function useSaveBlock(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: BlockBody }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/recommendation-blocks/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: (block) => {
      queryClient.setQueryData(recommendationKeys.block(shopId, block.code), block);
      void queryClient.invalidateQueries({ queryKey: recommendationKeys.blocks(shopId), exact: true });
      // New rules answer differently: the preview shown asks again, the others are dropped.
      void queryClient.invalidateQueries({ queryKey: recommendationKeys.preview(shopId, block.code) });
    },
  });
}

/** The models' build: polled every 2 seconds while one runs, or while `waiting` says one asked for has not run yet. */
export function useModelsStatus(shopId: string, waiting: (data: ModelsStatus | undefined) => boolean) {
  return useQuery({
    queryKey: recommendationKeys.status(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/recommendations/status', { params: { path: { shop_id: shopId } } })),
    refetchInterval: (query) => (query.state.data?.building || waiting(query.state.data) ? 2000 : false),
  });
}

export function useRebuild(shopId: string) {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/shops/{shop_id}/recommendations/rebuild', { params: { path: { shop_id: shopId } } })),
  });
}

/**
 * What the preview shows for a request: the block's products, or that no customer holds the
 * identifier typed (said at the customer field without asking for the preview).
 */
export type PreviewAnswer =
  | { readonly kind: 'shown'; readonly item: string; readonly preview: BlockPreview; readonly customer: PreviewCustomer | null }
  | { readonly kind: 'noCustomer' };

/**
 * The block's preview (GET …/recommendation-blocks/{code}/preview) for an offer id and a
 * customer found by any identifier (GET …/customers?identifier=) or by profile id; asked for
 * only once a request is made ("Show"). Saving the block invalidates it (useSaveBlock).
 */
export function useBlockPreview(shopId: string, code: string, request: PreviewRequest | null) {
  return useQuery({
    queryKey: [...recommendationKeys.preview(shopId, code), request?.item ?? '', request?.customer ?? ''],
    queryFn: async (): Promise<PreviewAnswer> => {
      const { item, customer: typed } = request ?? { item: '', customer: '' };
      let customer: PreviewCustomer | null = null;
      if (typed !== '') {
        const found = await unwrap(
          api.GET('/admin/v1/shops/{shop_id}/customers', { params: { path: { shop_id: shopId }, query: { identifier: typed } } }),
        );
        customer = customerOf(typed, found.items) ?? null;
        if (customer === null) return { kind: 'noCustomer' };
      }
      const preview = await unwrap(
        api.GET('/admin/v1/shops/{shop_id}/recommendation-blocks/{code}/preview', {
          params: {
            path: { shop_id: shopId, code },
            query: { ...(item === '' ? {} : { item }), ...(customer === null ? {} : { profile_id: customer.profileId }) },
          },
        }),
      );
      return { kind: 'shown', item, preview, customer };
    },
    enabled: request !== null,
  });
}

/** The first products whose offer id or name holds the text typed (GET …/products?query=), for the product picker. */
export function useProductSuggestions(shopId: string, text: string) {
  return useQuery({
    queryKey: recommendationKeys.suggestions(shopId, text),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/products', {
          params: { path: { shop_id: shopId }, query: { query: text, limit: SUGGESTIONS } },
        }),
      ),
    enabled: text !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
