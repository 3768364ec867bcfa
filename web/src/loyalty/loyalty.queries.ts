import { ApiError, toApiError } from '../api/client';
import type { paths } from '../api/schema';
import { useShop } from '../shops/shop.queries';
import type { ShopLocale } from '../i18n/format';

type Json<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'patch'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Promotion = Json<'/admin/v1/shops/{shop_id}/promotions/{id}', 'get'>;
export type PromoCode = Json<'/admin/v1/shops/{shop_id}/promo-codes/{code}', 'get'>;
export type Member = Json<'/admin/v1/shops/{shop_id}/loyalty/members/{identifier}', 'get'>;
export type LedgerLine = Member['transactions'][number];
export type Ladder = Json<'/admin/v1/shops/{shop_id}/loyalty/levels', 'get'>;
export type Settings = Json<'/admin/v1/shops/{shop_id}/loyalty', 'get'>;
export type Plan = Json<'/admin/v1/shops/{shop_id}/subscriptions/{code}/plans/{plan}', 'get'>;

export const loyaltyKeys = {
  settings: (shopId: string) => ['shops', shopId, 'loyalty'] as const,
  levels: (shopId: string) => ['shops', shopId, 'loyalty', 'levels'] as const,
  liabilities: (shopId: string) => ['shops', shopId, 'loyalty', 'liabilities'] as const,
  members: (shopId: string) => ['shops', shopId, 'loyalty', 'members'] as const,
  member: (shopId: string, identifier: string) => ['shops', shopId, 'loyalty', 'members', identifier] as const,
  promotions: (shopId: string) => ['shops', shopId, 'promotions'] as const,
  promotion: (shopId: string, id: string) => ['shops', shopId, 'promotions', id] as const,
  codes: (shopId: string, id: string) => ['shops', shopId, 'promotions', id, 'codes'] as const,
  subscriptions: (shopId: string) => ['shops', shopId, 'subscriptions'] as const,
  subscription: (shopId: string, code: string) => ['shops', shopId, 'subscriptions', code] as const,
  certificates: (shopId: string) => ['shops', shopId, 'certificates'] as const,
};

/** The shop's currency and time zone, for every amount and time of the section. */
export function useShopLocale(shopId: string): ShopLocale | undefined {
  const shop = useShop(shopId).data;
  return shop ? { currency: shop.currency, timezone: shop.timezone } : undefined;
}

/** Downloads a file the server makes (the promo codes CSV), saved by the browser under `filename`. */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}
