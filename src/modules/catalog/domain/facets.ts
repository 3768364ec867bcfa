import {
  BRANDS,
  CATEGORIES,
  compile,
  failedFilters,
  FIRST_PARAM_BIT,
  inCategory,
  LOCATIONS,
  PRICE,
  type ListingFilters,
} from './facet-filters.js';
import type { FacetIndex } from './facet-index.js';
import type { CategoryRecord } from './product-view.js';

/**
 * Filters and facets over a facet index (facet-index.ts), one implementation for GET
 * /search, GET /products and GET /category/{id}. Pure. Rules (docs/search.md "Filters and
 * facets"):
 *
 * - Values of one filter are alternatives (brand A or B); filters together must all hold.
 * - Each facet counts the products that meet every filter but its own, so a user who
 *   picked a brand still sees the other brands and their counts (and a picked param
 *   value, the other values of that param). Locations and the scope category are not
 *   facets: they narrow everything.
 * - Unknown brands, categories, locations, param names or values match nothing.
 * - Excluded offer ids are left out of everything, like products outside the scope.
 */

/** Whether any filter narrows the listing (an empty list or map narrows nothing). */
export function hasListingFilters(filters: ListingFilters): boolean {
  return (
    (filters.brands?.length ?? 0) > 0 ||
    (filters.categories?.length ?? 0) > 0 ||
    (filters.locations?.length ?? 0) > 0 ||
    filters.priceMin !== undefined ||
    filters.priceMax !== undefined ||
    (filters.params?.size ?? 0) > 0 ||
    (filters.exclude?.length ?? 0) > 0
  );
}

/** `sort_by` values: `relevance` keeps the given order, the others are ListingSort's. */
export const LISTING_SORT_KEYS = ['popular', 'sales_rate', 'price', 'discount', 'relevance'] as const;
export type ListingSortKey = Exclude<(typeof LISTING_SORT_KEYS)[number], 'relevance'>;

/**
 * An order instead of the given one: `popular` and `sales_rate` are the listing order
 * (the feed's sales rate), `price` the price, `discount` the share taken off the old
 * price. Equal keys keep the given order (the search's rank, or the listing order).
 */
export interface ListingSort {
  readonly by: ListingSortKey;
  readonly dir: 'asc' | 'desc';
}

/** Entries of the category and brand facets shown at most (below MAX_FACET_ENTRIES, which always applies). */
export interface FacetLimits {
  readonly categories?: number;
  readonly brands?: number;
}

export interface ListingPage {
  /** Rows skipped: (page − 1) × limit, or the offset asked for. */
  readonly offset: number;
  readonly limit: number;
  readonly sort?: ListingSort;
  readonly facetLimits?: FacetLimits;
}

export interface BrandFacet {
  readonly name: string;
  readonly count: number;
}

export interface CategoryFacet {
  readonly category: CategoryRecord;
  readonly count: number;
}

export interface ParamFacet {
  readonly key: string;
  /** Products carrying the param. */
  readonly count: number;
  /** Value → products carrying it, most products first. */
  readonly values: ReadonlyArray<readonly [string, number]>;
}

export interface FacetedPage {
  /** Products meeting every filter. */
  readonly total: number;
  /** Offer ids of the page, in the order given. */
  readonly ids: readonly string[];
  readonly brands: readonly BrandFacet[];
  readonly categories: readonly CategoryFacet[];
  readonly filters: readonly ParamFacet[];
  /** Minor units; null when no product is left. */
  readonly priceRange: { readonly min: number; readonly max: number } | null;
}

/** Entries of each facet list shown at most, most products first. */
export const MAX_FACET_ENTRIES = 500;
/** Param names shown at most, and values shown per name. */
export const MAX_FACET_PARAMS = 100;
export const MAX_FACET_PARAM_VALUES = 200;

/**
 * The page and the facets of `order` (rows of the index, best first; null: every row in
 * listing order) under `filters`, optionally confined to `scopeCategory` (an index into
 * the index's categories: the category and its subtree).
 */
export function facetedPage(
  index: FacetIndex,
  order: Iterable<number> | null,
  filters: ListingFilters,
  page: ListingPage,
  scopeCategory?: number,
): FacetedPage {
  const compiled = compile(index, filters);
  const brandCounts = new Int32Array(index.brands.length);
  const categoryCounts = new Int32Array(index.categories.length);
  const pairCounts = new Int32Array(index.pairValue.length);
  const keyCounts = new Int32Array(index.paramKeys.length);
  const keySeenAt = new Int32Array(index.paramKeys.length).fill(-1);
  let priceMin = Infinity;
  let priceMax = -Infinity;
  let total = 0;
  const ids: string[] = [];
  /** With a sort, every row that meets the filters; the page is cut after sorting. */
  const matched: number[] | null = page.sort === undefined ? null : [];

  const rows = order ?? rangeOf(index.size);
  for (const row of rows) {
    if (scopeCategory !== undefined && !inCategory(index, row, scopeCategory)) continue;
    if (compiled.excluded.has(row)) continue;
    const failed = failedFilters(index, row, compiled);
    // A row that fails two filters, or locations, counts nowhere.
    if (failed !== 0 && (failed & (failed - 1)) !== 0) continue;
    if (failed === 1 << LOCATIONS) continue;
    const all = failed === 0;
    if (all) {
      if (matched !== null) matched.push(row);
      else if (total >= page.offset && ids.length < page.limit) ids.push(index.ids[row]!);
      total += 1;
    }
    if (all || failed === 1 << BRANDS) {
      const brand = index.brandOf[row]!;
      if (brand >= 0) brandCounts[brand] = brandCounts[brand]! + 1;
    }
    if (all || failed === 1 << CATEGORIES) {
      for (let i = index.catStart[row]!; i < index.catStart[row + 1]!; i++) {
        const category = index.catList[i]!;
        categoryCounts[category] = categoryCounts[category]! + 1;
      }
    }
    if (all || failed === 1 << PRICE) {
      const price = index.price[row]!;
      if (price < priceMin) priceMin = price;
      if (price > priceMax) priceMax = price;
    }
    if (all || failed >= 1 << FIRST_PARAM_BIT) {
      for (let i = index.parStart[row]!; i < index.parStart[row + 1]!; i++) {
        const pair = index.parList[i]!;
        const key = index.pairKey[pair]!;
        if (!all && compiled.paramBitOfKey.get(key) !== failed) continue;
        pairCounts[pair] = pairCounts[pair]! + 1;
        if (keySeenAt[key] !== row) {
          keySeenAt[key] = row;
          keyCounts[key] = keyCounts[key]! + 1;
        }
      }
    }
  }

  if (matched !== null && page.sort !== undefined) {
    // Array.prototype.sort is stable: equal keys keep the given order.
    matched.sort(comparator(index, page.sort));
    for (const row of matched.slice(page.offset, page.offset + page.limit)) ids.push(index.ids[row]!);
  }

  return {
    total,
    ids,
    brands: topEntries(brandCounts, facetCap(page.facetLimits?.brands), (i) => index.brands[i]!).map(([name, count]) => ({ name, count })),
    categories: topEntries(categoryCounts, facetCap(page.facetLimits?.categories), (i) => index.categories[i]!.externalId).map(
      ([externalId, count]) => ({ category: index.categories[index.categoryByExternalId.get(externalId)!]!, count }),
    ),
    filters: paramFacets(index, keyCounts, pairCounts),
    priceRange: priceMin === Infinity ? null : { min: priceMin, max: priceMax },
  };
}

function comparator(index: FacetIndex, sort: ListingSort): (a: number, b: number) => number {
  const sign = sort.dir === 'asc' ? 1 : -1;
  switch (sort.by) {
    case 'price':
      return (a, b) => sign * (index.price[a]! - index.price[b]!);
    case 'discount':
      return (a, b) => sign * (index.discount[a]! - index.discount[b]!);
    case 'popular':
    case 'sales_rate':
      // Rows are in listing order, most popular first: descending popularity is ascending rows.
      return (a, b) => -sign * (a - b);
  }
}

function facetCap(limit: number | undefined): number {
  return Math.min(MAX_FACET_ENTRIES, limit ?? MAX_FACET_ENTRIES);
}

function* rangeOf(size: number): Iterable<number> {
  for (let row = 0; row < size; row++) yield row;
}

/** Non-zero counts, most first, then by label (code-unit order); at most `max`. */
function topEntries(counts: Int32Array, max: number, label: (i: number) => string): Array<[string, number]> {
  const entries: Array<[string, number]> = [];
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) entries.push([label(i), counts[i]!]);
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return entries.slice(0, max);
}

function paramFacets(index: FacetIndex, keyCounts: Int32Array, pairCounts: Int32Array): ParamFacet[] {
  const valuesByKey = new Map<number, Array<[string, number]>>();
  for (let pair = 0; pair < pairCounts.length; pair++) {
    const count = pairCounts[pair]!;
    if (count === 0) continue;
    const key = index.pairKey[pair]!;
    let values = valuesByKey.get(key);
    if (values === undefined) valuesByKey.set(key, (values = []));
    values.push([index.pairValue[pair]!, count]);
  }
  return topEntries(keyCounts, MAX_FACET_PARAMS, (i) => index.paramKeys[i]!).map(([key, count]) => {
    const values = valuesByKey.get(index.paramKeyByName.get(key)!) ?? [];
    values.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { key, count, values: values.slice(0, MAX_FACET_PARAM_VALUES) };
  });
}
