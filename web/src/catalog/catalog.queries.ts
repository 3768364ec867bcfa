import { useInfiniteQuery } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { Language } from '../i18n/i18n';

type Json<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } }
  ? B
  : never;

export type FeedStatus = Json<'/admin/v1/shops/{shop_id}/feed'>;
export type FeedImport = Json<'/admin/v1/shops/{shop_id}/feed/imports'>['imports'][number];
export type Product = Json<'/admin/v1/shops/{shop_id}/products'>['items'][number];
export type CategoryNode = Json<'/admin/v1/shops/{shop_id}/categories'>['items'][number];
export type NoResultQuery = Json<'/admin/v1/shops/{shop_id}/search/no-results'>['items'][number];
export type SliderSummary = Json<'/admin/v1/shops/{shop_id}/sliders'>['sliders'][number];
export type Slider = Json<'/admin/v1/shops/{shop_id}/sliders/{code}'>;

export const catalogKeys = {
  feed: (shopId: string) => ['shops', shopId, 'feed'] as const,
  imports: (shopId: string) => ['shops', shopId, 'feed', 'imports'] as const,
  products: (shopId: string, filters: object) => ['shops', shopId, 'products', filters] as const,
  hidden: (shopId: string) => ['shops', shopId, 'products', 'hidden'] as const,
  categories: (shopId: string, parent: string | null) => ['shops', shopId, 'categories', parent] as const,
  noResults: (shopId: string) => ['shops', shopId, 'search', 'no-results'] as const,
  sliders: (shopId: string) => ['shops', shopId, 'sliders'] as const,
  slider: (shopId: string, code: string) => ['shops', shopId, 'sliders', code] as const,
};

interface KeysetPage<T> {
  readonly items: T[];
  readonly next_cursor: string | null;
}

/**
 * A keyset-paged list (docs/admin-lists.md): the first page, then "Load more" passes the
 * last answer's `next_cursor` back as `cursor` until it is null.
 */
export function useKeysetList<T>(
  queryKey: readonly unknown[],
  fetchPage: (cursor: string | undefined) => Promise<{ data?: KeysetPage<T>; error?: unknown; response: Response }>,
) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(fetchPage(pageParam)),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  return { query, items };
}

/** The product lists give prices in currency units (catalog-lists.routes.ts converts at the API's edge). */
export { formatUnits } from '../i18n/format';

/** A link from the feed, followed only when it is http(s): never a `javascript:` href. */
export function safeHref(url: string | null): string | undefined {
  return url !== null && /^https?:\/\//i.test(url) ? url : undefined;
}

/** A file size in words: 1.5 MB, 800 KB. */
export function formatBytes(bytes: number, language: Language): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
