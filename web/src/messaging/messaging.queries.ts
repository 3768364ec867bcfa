import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { ShopLocale } from '../i18n/format';
import { useShop } from '../shops/shop.queries';
import type { SearchQuery } from './log-filters';

type Json<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type ChannelOverview = Json<'/admin/v1/shops/{shop_id}/channels', 'get'>['channels'][number];
export type ChannelName = ChannelOverview['channel'];
export type MessageDetail = Json<'/admin/v1/shops/{shop_id}/messages/{code}', 'get'>;
export type Endpoint = Json<'/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}', 'get'>;
export type WebhookDelivery = Json<'/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}/deliveries', 'get'>['deliveries'][number];

export const messagingKeys = {
  channels: (shopId: string) => ['shops', shopId, 'channels'] as const,
  channel: (shopId: string, channel: string) => ['shops', shopId, 'channels', channel] as const,
  vendors: (shopId: string, channel: string) => ['shops', shopId, 'channels', channel, 'vendors'] as const,
  log: (shopId: string, query: SearchQuery) => ['shops', shopId, 'messages', 'search', query] as const,
  message: (shopId: string, code: string) => ['shops', shopId, 'messages', code] as const,
  endpoints: (shopId: string) => ['shops', shopId, 'webhooks'] as const,
  endpoint: (shopId: string, id: string) => ['shops', shopId, 'webhooks', id] as const,
  deliveries: (shopId: string, id: string) => ['shops', shopId, 'webhooks', id, 'deliveries'] as const,
};

/** The shop's zone and currency: every time of the section is shown in the shop's zone. */
export function useShopLocale(shopId: string): ShopLocale | undefined {
  const shop = useShop(shopId).data;
  return shop ? { currency: shop.currency, timezone: shop.timezone } : undefined;
}

export function useChannels(shopId: string) {
  return useQuery({
    queryKey: messagingKeys.channels(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/channels', { params: { path: { shop_id: shopId } } })),
  });
}

/** The channel's stored settings, secrets masked; `null` when the channel is not configured (the API's 404). */
export function useChannelSettings(shopId: string, channel: string, configured: boolean | undefined) {
  return useQuery({
    queryKey: messagingKeys.channel(shopId, channel),
    enabled: configured !== undefined,
    queryFn: async () =>
      configured
        ? unwrap(api.GET('/admin/v1/shops/{shop_id}/channels/{channel}', { params: { path: { shop_id: shopId, channel } } }))
        : null,
  });
}

export function useChannelVendors(shopId: string, channel: string) {
  return useQuery({
    queryKey: messagingKeys.vendors(shopId, channel),
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/channels/{channel}/vendors', { params: { path: { shop_id: shopId, channel } } })),
  });
}

export function useSaveChannel(shopId: string, channel: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/channels/{channel}', { params: { path: { shop_id: shopId, channel } }, body })),
    onSuccess: (saved) => {
      client.setQueryData(messagingKeys.channel(shopId, channel), saved);
      void client.invalidateQueries({ queryKey: messagingKeys.channels(shopId), exact: true });
    },
  });
}

export function useGenerateVapidKeys(shopId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (subject: string) =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/channels/web_push/vapid_keys', { params: { path: { shop_id: shopId } }, body: { subject } }),
      ),
    onSuccess: (saved) => {
      client.setQueryData(messagingKeys.channel(shopId, 'web_push'), saved);
      void client.invalidateQueries({ queryKey: messagingKeys.channels(shopId), exact: true });
    },
  });
}

export function useTestSend(shopId: string, channel: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (to: string) =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/channels/{channel}/test', { params: { path: { shop_id: shopId, channel } }, body: { to } }),
      ),
    // The health counts test sends: read it again.
    onSettled: () => void client.invalidateQueries({ queryKey: messagingKeys.channels(shopId), exact: true }),
  });
}

const LOG_PAGE = 50;

export function useMessageSearch(shopId: string, query: SearchQuery, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: messagingKeys.log(shopId, query),
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/messages/search', {
          params: {
            path: { shop_id: shopId },
            query: { ...query, limit: LOG_PAGE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useMessage(shopId: string, code: string) {
  return useQuery({
    queryKey: messagingKeys.message(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/messages/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
}

export function useEndpoints(shopId: string) {
  return useQuery({
    queryKey: messagingKeys.endpoints(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/webhooks/endpoints', { params: { path: { shop_id: shopId } } })),
  });
}

export function useEndpoint(shopId: string, id: string) {
  return useQuery({
    queryKey: messagingKeys.endpoint(shopId, id),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}', { params: { path: { shop_id: shopId, endpoint_id: id } } }),
      ),
  });
}

export const DELIVERIES_PAGE = 20;

/** An endpoint's deliveries, newest first, 20 a page (the API pages these by offset). */
export function useDeliveries(shopId: string, id: string) {
  return useInfiniteQuery({
    queryKey: messagingKeys.deliveries(shopId, id),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}/deliveries', {
          params: { path: { shop_id: shopId, endpoint_id: id }, query: { limit: DELIVERIES_PAGE, offset: pageParam } },
        }),
      ),
    getNextPageParam: (last, pages) => (last.deliveries.length < DELIVERIES_PAGE ? undefined : pages.length * DELIVERIES_PAGE),
  });
}
