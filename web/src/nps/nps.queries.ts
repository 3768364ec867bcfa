import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { Period } from '../dashboards/period';

type Json<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } }
  ? B
  : never;

export type Channel = Json<'/admin/v1/shops/{shop_id}/nps/channels'>['channels'][number];
export type Category = Json<'/admin/v1/shops/{shop_id}/nps/categories'>['categories'][number];
export type CategoryBody = NonNullable<
  paths['/admin/v1/shops/{shop_id}/nps/categories/{code}']['put']['requestBody']
>['content']['application/json'];
export type Review = Json<'/admin/v1/shops/{shop_id}/nps/reviews'>['reviews'][number];
export type Score = Json<'/admin/v1/shops/{shop_id}/nps/score'>;
export type Interval = 'day' | 'week';

/** The reviews page's filters besides the period; empty means all. */
export interface ReviewFilters {
  readonly channel: string;
  readonly category: string;
  readonly rateMin: string;
  readonly rateMax: string;
}

export const npsKeys = {
  channels: (shopId: string) => ['shops', shopId, 'nps', 'channels'] as const,
  categories: (shopId: string) => ['shops', shopId, 'nps', 'categories'] as const,
  reviews: (shopId: string, period: Period, filters: ReviewFilters) => ['shops', shopId, 'nps', 'reviews', period, filters] as const,
  score: (shopId: string, period: Period, filters: ReviewFilters, interval: Interval) =>
    ['shops', shopId, 'nps', 'score', period, filters, interval] as const,
  all: (shopId: string) => ['shops', shopId, 'nps'] as const,
};

const PAGE = 50;

export function useChannels(shopId: string) {
  return useQuery({
    queryKey: npsKeys.channels(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/nps/channels', { params: { path: { shop_id: shopId } } })),
  });
}

export function useCategories(shopId: string) {
  return useQuery({
    queryKey: npsKeys.categories(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/nps/categories', { params: { path: { shop_id: shopId } } })),
  });
}

export function useSaveChannel(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, name }: { code: string; name: string }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/nps/channels/{code}', { params: { path: { shop_id: shopId, code } }, body: { name } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: npsKeys.channels(shopId) }),
  });
}

export function useDeleteChannel(shopId: string, code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/nps/channels/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: npsKeys.channels(shopId) }),
  });
}

export function useSaveCategory(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: CategoryBody }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/nps/categories/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: npsKeys.categories(shopId) }),
  });
}

export function useDeleteCategory(shopId: string, code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/admin/v1/shops/{shop_id}/nps/categories/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: npsKeys.categories(shopId) }),
  });
}

/** The query parameters of a period and filters, as every reviews and score call takes them. */
export function queryOf(period: Period, filters: ReviewFilters) {
  const rate = (text: string) => (text === '' ? undefined : Number(text));
  const rateMin = rate(filters.rateMin);
  const rateMax = rate(filters.rateMax);
  return {
    date_from: period.from,
    date_to: period.to,
    ...(filters.channel !== '' && { channel: filters.channel }),
    ...(filters.category !== '' && { category: filters.category }),
    ...(rateMin !== undefined && { rate_min: rateMin }),
    ...(rateMax !== undefined && { rate_max: rateMax }),
  };
}

/** The reviews of the period, newest first, a page at a time ("Show more"). */
export function useReviews(shopId: string, period: Period | undefined, filters: ReviewFilters) {
  const query = useInfiniteQuery({
    queryKey: npsKeys.reviews(shopId, period ?? { from: '', to: '' }, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/nps/reviews', {
          params: {
            path: { shop_id: shopId },
            query: { ...queryOf(period as Period, filters), limit: PAGE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: period !== undefined,
  });
  return { query, reviews: query.data?.pages.flatMap((page) => page.reviews) ?? [] };
}

/** The score of the period (channel and category narrow it; the rate filter does not apply to a score). */
export function useScore(shopId: string, period: Period | undefined, filters: ReviewFilters, interval: Interval) {
  const scoreFilters = { ...filters, rateMin: '', rateMax: '' };
  return useQuery({
    queryKey: npsKeys.score(shopId, period ?? { from: '', to: '' }, scoreFilters, interval),
    queryFn: () => {
      const { rate_min: _min, rate_max: _max, ...query } = queryOf(period as Period, scoreFilters);
      return unwrap(
        api.GET('/admin/v1/shops/{shop_id}/nps/score', { params: { path: { shop_id: shopId }, query: { ...query, interval } } }),
      );
    },
    enabled: period !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** A CSV download of the admin API, named as the server names it. */
export function csvOf(shopId: string, what: 'reviews' | 'score', query: Record<string, string | number>) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return {
    path: `/admin/v1/shops/${encodeURIComponent(shopId)}/nps/${what}.csv?${params.toString()}`,
    filename: `nps-${what}-${String(query.date_from)}-${String(query.date_to)}.csv`,
  };
}
