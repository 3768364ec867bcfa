import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type PreviewBody = paths['/admin/v1/shops/{shop_id}/templates/preview']['post']['requestBody']['content']['application/json'];
export type TestBody = paths['/admin/v1/shops/{shop_id}/templates/test']['post']['requestBody']['content']['application/json'];

export const templateKeys = {
  preview: (shopId: string, body: PreviewBody | undefined) => ['shops', shopId, 'templates', 'preview', body] as const,
  customers: (shopId: string, identifier: string) => ['shops', shopId, 'templates', 'customers', identifier] as const,
};

/** A value that settles: the last one after `ms` without a change (the preview waits for a pause in typing). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The live preview (POST …/templates/preview): a render that changes nothing, so a query
 * keyed by the request; the last answer stays shown while the next renders.
 */
export function useTemplatePreview(shopId: string, body: PreviewBody | undefined) {
  return useQuery({
    queryKey: templateKeys.preview(shopId, body),
    queryFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/templates/preview', {
          params: { path: { shop_id: shopId } },
          body: body as PreviewBody,
        }),
      ),
    enabled: body !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** A test send of the template being edited (POST …/templates/test). */
export function useTemplateTest(shopId: string) {
  return useMutation({
    mutationFn: (body: TestBody) =>
      unwrap(api.POST('/admin/v1/shops/{shop_id}/templates/test', { params: { path: { shop_id: shopId } }, body })),
  });
}

/** The customers holding an identifier (exact match), for the preview's sample data. */
export function useCustomerSearch(shopId: string, identifier: string) {
  return useQuery({
    queryKey: templateKeys.customers(shopId, identifier),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/customers', { params: { path: { shop_id: shopId }, query: { identifier } } })),
    enabled: identifier !== '',
  });
}
