import { useQuery } from '@tanstack/react-query';
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

/** What an endpoint still being added (branch i35-gaps) answers: its data, or that it is not there yet. */
export type Optional<T> = { readonly available: true; readonly data: T } | { readonly available: false };

/**
 * The server has no such route yet: 404 for an unknown path, 405 for a path that takes
 * other methods only (POST …/certificates exists before its GET list does).
 */
function missingRoute(response: Response): boolean {
  return response.status === 404 || response.status === 405;
}

/**
 * A GET of an admin path the typed client does not know yet (certificate lists): a missing
 * route is shown as "not available" rather than as a failure.
 */
export async function getOptional<T>(path: string, query: Readonly<Record<string, string | undefined>> = {}): Promise<Optional<T>> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const search = params.toString();
  const response = await fetch(`${path}${search ? `?${search}` : ''}`, { credentials: 'same-origin' });
  if (missingRoute(response)) return { available: false };
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw toApiError(response, body);
  return { available: true, data: body as T };
}

/**
 * Downloads a file the server makes (the promo codes CSV): false when the server has no
 * such route yet (404), so the screen can say so; a file saved by the browser otherwise.
 */
export async function downloadFile(path: string, filename: string): Promise<boolean> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (missingRoute(response)) return false;
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}

export function useOptionalList<T>(key: readonly unknown[], path: string, query: Readonly<Record<string, string | undefined>>) {
  return useQuery({ queryKey: [...key, query], queryFn: () => getOptional<T>(path, query) });
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}
