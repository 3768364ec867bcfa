import { brandKey, pairKeyOf, type FacetIndex } from './facet-index.js';
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

export interface ListingFilters {
  readonly brands?: readonly string[];
  /** Feed category ids: a product in the category or below it. */
  readonly categories?: readonly string[];
  /** A product sold in one of them, or everywhere. */
  readonly locations?: readonly string[];
  /** Minor units, inclusive. */
  readonly priceMin?: number;
  readonly priceMax?: number;
  /** Param name → accepted values. */
  readonly params?: ReadonlyMap<string, readonly string[]>;
  /** Offer ids left out of the page and of every facet (products a client shows already). */
  readonly exclude?: readonly string[];
}

export interface ListingPage {
  /** Rows skipped (page − 1) × limit. */
  readonly offset: number;
  readonly limit: number;
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

const BRANDS = 0;
const CATEGORIES = 1;
const PRICE = 2;
const LOCATIONS = 3;
/** Bits of the param filters start here (one bit per filtered param name). */
const FIRST_PARAM_BIT = 4;

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
      if (total >= page.offset && ids.length < page.limit) ids.push(index.ids[row]!);
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

  return {
    total,
    ids,
    brands: topEntries(brandCounts, MAX_FACET_ENTRIES, (i) => index.brands[i]!).map(([name, count]) => ({ name, count })),
    categories: topEntries(categoryCounts, MAX_FACET_ENTRIES, (i) => index.categories[i]!.externalId).map(
      ([externalId, count]) => ({ category: index.categories[index.categoryByExternalId.get(externalId)!]!, count }),
    ),
    filters: paramFacets(index, keyCounts, pairCounts),
    priceRange: priceMin === Infinity ? null : { min: priceMin, max: priceMax },
  };
}

interface CompiledFilters {
  readonly brands: Set<number> | null;
  readonly categories: Set<number> | null;
  readonly locations: Set<number> | null;
  readonly priceMin: number;
  readonly priceMax: number;
  /** Per filtered param: its bit and its accepted pairs. */
  readonly params: ReadonlyArray<{ readonly bit: number; readonly pairs: Set<number> }>;
  readonly paramBitOfKey: ReadonlyMap<number, number>;
  readonly excluded: ReadonlySet<number>;
}

/** Filters as sets of index entries; a filter whose values are all unknown keeps an empty set (matches nothing). */
function compile(index: FacetIndex, filters: ListingFilters): CompiledFilters {
  const known = (values: readonly string[] | undefined, lookup: (value: string) => number | undefined) =>
    values === undefined || values.length === 0
      ? null
      : new Set(values.map(lookup).filter((found): found is number => found !== undefined));
  const params: { bit: number; pairs: Set<number> }[] = [];
  const paramBitOfKey = new Map<number, number>();
  for (const [name, values] of filters.params ?? []) {
    if (values.length === 0) continue;
    const bit = 1 << (FIRST_PARAM_BIT + params.length);
    const key = index.paramKeyByName.get(name);
    const pairs = new Set<number>();
    if (key !== undefined) {
      paramBitOfKey.set(key, bit);
      for (const value of values) {
        const pair = index.pairByKeyValue.get(pairKeyOf(key, value));
        if (pair !== undefined) pairs.add(pair);
      }
    }
    params.push({ bit, pairs });
  }
  return {
    brands: known(filters.brands, (name) => index.brandByKey.get(brandKey(name))),
    categories: known(filters.categories, (id) => index.categoryByExternalId.get(id)),
    locations: known(filters.locations, (id) => index.locationById.get(id)),
    priceMin: filters.priceMin ?? -Infinity,
    priceMax: filters.priceMax ?? Infinity,
    params,
    paramBitOfKey,
    excluded: new Set((filters.exclude ?? []).map((id) => index.rowOf.get(id)).filter((row): row is number => row !== undefined)),
  };
}

/** The bits of the filters the row fails. */
function failedFilters(index: FacetIndex, row: number, filters: CompiledFilters): number {
  let failed = 0;
  if (filters.brands !== null && !filters.brands.has(index.brandOf[row]!)) failed |= 1 << BRANDS;
  if (filters.categories !== null && !sliceMeets(index.catList, index.catStart[row]!, index.catStart[row + 1]!, filters.categories)) {
    failed |= 1 << CATEGORIES;
  }
  const price = index.price[row]!;
  if (price < filters.priceMin || price > filters.priceMax) failed |= 1 << PRICE;
  if (filters.locations !== null) {
    const start = index.locStart[row]!;
    const end = index.locStart[row + 1]!;
    // An empty list is sold everywhere.
    if (start !== end && !sliceMeets(index.locList, start, end, filters.locations)) failed |= 1 << LOCATIONS;
  }
  for (const param of filters.params) {
    if (!sliceMeets(index.parList, index.parStart[row]!, index.parStart[row + 1]!, param.pairs)) failed |= param.bit;
  }
  return failed;
}

function sliceMeets(list: Int32Array, start: number, end: number, wanted: ReadonlySet<number>): boolean {
  for (let i = start; i < end; i++) if (wanted.has(list[i]!)) return true;
  return false;
}

function inCategory(index: FacetIndex, row: number, category: number): boolean {
  for (let i = index.catStart[row]!; i < index.catStart[row + 1]!; i++) if (index.catList[i] === category) return true;
  return false;
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
