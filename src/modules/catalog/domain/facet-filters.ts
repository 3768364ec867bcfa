import { brandKey, pairKeyOf, type FacetIndex } from './facet-index.js';

/**
 * Which filters a row of the facet index fails, as bits: facets.ts counts a row in a
 * facet when it fails no filter but that facet's own. Pure.
 */

/** What a listing is narrowed by (domain/facets.ts applies them). */
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

export const BRANDS = 0;
export const CATEGORIES = 1;
export const PRICE = 2;
export const LOCATIONS = 3;
/**
 * Bits of the param filters start here (one bit per filtered param name): 27 names fit a
 * 31-bit mask; the parameters allow 20 (public-api/common/listing.params.ts).
 */
export const FIRST_PARAM_BIT = 4;
const MAX_PARAM_FILTERS = 31 - FIRST_PARAM_BIT;

export interface CompiledFilters {
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
export function compile(index: FacetIndex, filters: ListingFilters): CompiledFilters {
  const known = (values: readonly string[] | undefined, lookup: (value: string) => number | undefined) =>
    values === undefined || values.length === 0
      ? null
      : new Set(values.map(lookup).filter((found): found is number => found !== undefined));
  const params: { bit: number; pairs: Set<number> }[] = [];
  const paramBitOfKey = new Map<number, number>();
  for (const [name, values] of filters.params ?? []) {
    if (values.length === 0) continue;
    if (params.length >= MAX_PARAM_FILTERS) throw new RangeError(`at most ${MAX_PARAM_FILTERS} param filters`);
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
export function failedFilters(index: FacetIndex, row: number, filters: CompiledFilters): number {
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

export function inCategory(index: FacetIndex, row: number, category: number): boolean {
  for (let i = index.catStart[row]!; i < index.catStart[row + 1]!; i++) if (index.catList[i] === category) return true;
  return false;
}
