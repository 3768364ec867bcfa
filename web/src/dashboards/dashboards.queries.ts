import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { FunnelType } from './funnel-steps';
import type { Period } from './period';

export const dashboardKeys = {
  overview: (shopId: string, period: Period) => ['shops', shopId, 'dashboard', period.from, period.to] as const,
  funnel: (shopId: string, type: FunnelType, id: string) => ['shops', shopId, 'dashboard', 'funnels', type, id] as const,
};

/** The overview of a period (GET …/dashboard?from&to); the last period's answer stays shown while the next loads. */
export function useOverview(shopId: string, period: Period | undefined) {
  return useQuery({
    queryKey: dashboardKeys.overview(shopId, period ?? { from: '', to: '' }),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/dashboard', {
          params: { path: { shop_id: shopId }, query: { from: period?.from ?? '', to: period?.to ?? '' } },
        }),
      ),
    enabled: period !== undefined,
    placeholderData: keepPreviousData,
  });
}

export function useFunnel(shopId: string, type: FunnelType, id: string) {
  return useQuery({
    queryKey: dashboardKeys.funnel(shopId, type, id),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/dashboard/funnels/{type}/{id}', { params: { path: { shop_id: shopId, type, id } } })),
  });
}

const shopPath = (shopId: string) => `/admin/v1/shops/${encodeURIComponent(shopId)}`;

/** The overview's CSV (GET …/dashboard.csv), named as the server names it. */
export function overviewCsv(shopId: string, period: Period): { readonly path: string; readonly filename: string } {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  return { path: `${shopPath(shopId)}/dashboard.csv?${query.toString()}`, filename: `dashboard-${period.from}-${period.to}.csv` };
}

export function funnelCsv(shopId: string, type: FunnelType, id: string): { readonly path: string; readonly filename: string } {
  return {
    path: `${shopPath(shopId)}/dashboard/funnels/${type}/${encodeURIComponent(id)}.csv`,
    filename: `funnel-${type}-${id}.csv`,
  };
}
