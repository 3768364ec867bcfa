import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type Json<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type CustomerSummary = Json<'/admin/v1/shops/{shop_id}/customers', 'get'>['items'][number];
export type Customer = Json<'/admin/v1/shops/{shop_id}/customers/{profile_id}', 'get'>;
export type TimelineEvent = Json<'/admin/v1/shops/{shop_id}/customers/{profile_id}/events', 'get'>['items'][number];
export type CustomerOrder = Json<'/admin/v1/shops/{shop_id}/customers/{profile_id}/orders', 'get'>['items'][number];
export type LedgerEntry = Json<'/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/transactions', 'get'>['items'][number];
export type CustomerMessage = Json<'/admin/v1/shops/{shop_id}/customers/{profile_id}/messages', 'get'>['items'][number];
export type Segment = Json<'/admin/v1/shops/{shop_id}/segments', 'get'>['segments'][number];
export type AudienceImportsPage = Json<'/admin/v1/shops/{shop_id}/imports', 'get'>;
export type AudienceImport = AudienceImportsPage['imports'][number];

/** Rows per page of the paged lists on these screens. */
export const PAGE_SIZE = 50;

export const customerKeys = {
  list: (shopId: string, identifier: string) => ['shops', shopId, 'customers', 'list', identifier] as const,
  one: (shopId: string, id: string) => ['shops', shopId, 'customers', id] as const,
  history: (shopId: string, id: string, what: string) => ['shops', shopId, 'customers', id, what] as const,
  ledger: (shopId: string, identifier: string) => ['shops', shopId, 'loyalty', identifier, 'transactions'] as const,
  segments: (shopId: string) => ['shops', shopId, 'segments'] as const,
  imports: (shopId: string) => ['shops', shopId, 'imports'] as const,
};

/** One identifier (exact match, one page) or, without one, every customer newest first (keyset pages). */
export function useCustomerList(shopId: string, identifier: string) {
  return useInfiniteQuery({
    queryKey: customerKeys.list(shopId, identifier),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/customers', {
          params: {
            path: { shop_id: shopId },
            query: identifier === '' ? { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { cursor: pageParam }) } : { identifier },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useCustomer(shopId: string, profileId: string) {
  return useQuery({
    queryKey: customerKeys.one(shopId, profileId),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/customers/{profile_id}', { params: { path: { shop_id: shopId, profile_id: profileId } } })),
  });
}

export function useCustomerEvents(shopId: string, profileId: string) {
  return useInfiniteQuery({
    queryKey: customerKeys.history(shopId, profileId, 'events'),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/customers/{profile_id}/events', {
          params: {
            path: { shop_id: shopId, profile_id: profileId },
            query: { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useCustomerOrders(shopId: string, profileId: string) {
  return useInfiniteQuery({
    queryKey: customerKeys.history(shopId, profileId, 'orders'),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/customers/{profile_id}/orders', {
          params: {
            path: { shop_id: shopId, profile_id: profileId },
            query: { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** The loyalty ledger, paged by `before` (the smallest id shown). */
export function useLedger(shopId: string, identifier: string) {
  return useInfiniteQuery({
    queryKey: customerKeys.ledger(shopId, identifier),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/transactions', {
          params: {
            path: { shop_id: shopId, identifier },
            query: { limit: 20, ...(pageParam === undefined ? {} : { before: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
}

/** The messages the providers accepted for the customer (and the profiles merged into it), newest first, a keyset page at a time. */
export function useCustomerMessages(shopId: string, profileId: string) {
  return useInfiniteQuery({
    queryKey: customerKeys.history(shopId, profileId, 'messages'),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/customers/{profile_id}/messages', {
          params: {
            path: { shop_id: shopId, profile_id: profileId },
            query: { limit: PAGE_SIZE, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useSegments(shopId: string) {
  return useQuery({
    queryKey: customerKeys.segments(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/segments', { params: { path: { shop_id: shopId } } })),
  });
}

/** Amounts of the customers and loyalty APIs are in currency units (their schemas say so), not minor units. */
export { formatUnits } from '../i18n/format';

/** A property value as text: strings as they are, anything else as its JSON. Never markup. */
export function propertyText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
