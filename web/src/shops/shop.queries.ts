import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components, paths } from '../api/schema';

type ShopList = paths['/admin/v1/shops']['get']['responses'][200]['content']['application/json'];
export type Shop = ShopList['shops'][number];
export type { components };

export const shopKeys = {
  all: ['shops'] as const,
  one: (shopId: string) => ['shops', shopId] as const,
};

export function useShops() {
  return useQuery({ queryKey: shopKeys.all, queryFn: () => unwrap(api.GET('/admin/v1/shops')) });
}

export function useShop(shopId: string) {
  return useQuery({
    queryKey: shopKeys.one(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}', { params: { path: { shop_id: shopId } } })),
  });
}

export type ShopStatus = 'active' | 'inactive' | 'restricted' | 'expired';

/** Why a shop does or does not serve the public API (admin-api.md, Shops), `today` in the shop's zone. */
export function shopStatus(shop: Shop, today: string): ShopStatus {
  if (!shop.active) return 'inactive';
  if (shop.restricted) return 'restricted';
  if (shop.paid_till !== null && shop.paid_till < today) return 'expired';
  return 'active';
}

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timezone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
