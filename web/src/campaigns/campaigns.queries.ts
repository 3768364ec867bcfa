import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { isFinished, POLL_MS } from './campaign-form';

type BulkPath = paths['/admin/v1/shops/{shop_id}/mailings/bulk'];
type LimitsPath = paths['/admin/v1/shops/{shop_id}/messaging/limits'];

/** A bulk mailing as GET …/mailings/bulk/{id} answers it (with its progress and results). */
export type Campaign = paths['/admin/v1/shops/{shop_id}/mailings/bulk/{id}']['get']['responses'][200]['content']['application/json'];
export type CampaignSummary = BulkPath['get']['responses'][200]['content']['application/json']['mailings'][number];
export type CreateCampaignBody = NonNullable<BulkPath['post']['requestBody']>['content']['application/json'];
export type Audience = paths['/admin/v1/shops/{shop_id}/mailings/bulk/audience']['get']['responses'][200]['content']['application/json'];
export type MessagingLimits = LimitsPath['get']['responses'][200]['content']['application/json'];
export type Outcomes = NonNullable<Campaign['results']>['total'];

/** Rows per page of the campaigns list. */
export const PAGE_SIZE = 20;

export const campaignKeys = {
  all: (shopId: string) => ['shops', shopId, 'campaigns'] as const,
  list: (shopId: string) => ['shops', shopId, 'campaigns', 'list'] as const,
  one: (shopId: string, id: string) => ['shops', shopId, 'campaigns', 'one', id] as const,
  audience: (shopId: string, segmentIds: string, channels: string) =>
    ['shops', shopId, 'campaigns', 'audience', segmentIds, channels] as const,
  limits: (shopId: string) => ['shops', shopId, 'messaging', 'limits'] as const,
};

/** The campaigns, newest first, a keyset page at a time. */
export function useCampaigns(shopId: string) {
  return useInfiniteQuery({
    queryKey: campaignKeys.list(shopId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/mailings/bulk', {
          params: { path: { shop_id: shopId }, query: { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { cursor: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** One campaign, read again every POLL_MS while it is not done (its progress bar moves), then left alone. */
export function useCampaign(shopId: string, id: string) {
  return useQuery({
    queryKey: campaignKeys.one(shopId, id),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/mailings/bulk/{id}', { params: { path: { shop_id: shopId, id } } })),
    refetchInterval: (query) => (query.state.data === undefined || isFinished(query.state.data) ? false : POLL_MS),
  });
}

/**
 * The reachable audience of the chosen segments on the chosen channels, asked again as the
 * choice changes (the last answer stays shown while the next loads). Nothing is asked
 * before a segment is picked.
 */
export function useAudience(shopId: string, segmentIds: readonly number[], channels: readonly string[]) {
  const ids = segmentIds.join(',');
  const chans = channels.join(',');
  return useQuery({
    queryKey: campaignKeys.audience(shopId, ids, chans),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/mailings/bulk/audience', {
          params: { path: { shop_id: shopId }, query: { segment_ids: ids, ...(chans === '' ? {} : { channels: chans }) } },
        }),
      ),
    enabled: ids !== '',
    placeholderData: keepPreviousData,
  });
}

export function useCreateCampaign(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCampaignBody) =>
      unwrap(api.POST('/admin/v1/shops/{shop_id}/mailings/bulk', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: campaignKeys.list(shopId) }),
  });
}

export function useLimits(shopId: string) {
  return useQuery({
    queryKey: campaignKeys.limits(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/messaging/limits', { params: { path: { shop_id: shopId } } })),
  });
}

export function usePutLimits(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MessagingLimits) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/messaging/limits', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: (answer) => {
      queryClient.setQueryData(campaignKeys.limits(shopId), answer);
      // The audience's over-cap counts depend on the caps.
      void queryClient.invalidateQueries({ queryKey: [...campaignKeys.all(shopId), 'audience'] });
    },
  });
}
