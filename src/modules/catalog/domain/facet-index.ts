import { categorySlug } from './link-handle.js';
import type { CategoryRecord } from './product-view.js';
import type { ProductParam } from './product.schema.js';

/**
 * The facet index of one served generation: for every product a storefront may list
 * (widgetable, not ignored, in stock: the products search finds), what the filters and
 * facets of GET /search, GET /products and GET /category/{id} read, in compact typed
 * arrays. Built once per (shop, generation) and shared by the three (listing.service.ts);
 * filtering and counting are domain/facets.ts. Pure. Decisions: docs/search.md
 * ("Filters and facets").
 *
 * Rows are in listing order: the feed's `sales_rate` high to low (none last), then offer
 * id (code-unit order, the same on both databases).
 */

/** A product as the index takes it (listing.repo.ts reads it). */
export interface FacetSource {
  readonly id: string;
  readonly vendor: string | null;
  /** Minor units; products without a price are never listed. */
  readonly price: number;
  readonly oldprice: number | null;
  readonly salesRate: number | null;
  readonly categoryIds: readonly string[];
  /** [] = sold everywhere. */
  readonly locationIds: readonly string[];
  readonly params: readonly ProductParam[];
}

export interface FacetIndex {
  readonly size: number;
  /** Offer id of each row. */
  readonly ids: readonly string[];
  readonly rowOf: ReadonlyMap<string, number>;
  /** Minor units per row. */
  readonly price: Float64Array;
  /** The share of the old price taken off, 0 to 1 (0 without an old price above the price). */
  readonly discount: Float64Array;
  /** Brand of each row (index into `brands`), -1 without a vendor. */
  readonly brandOf: Int32Array;
  /** Display name of each brand (its first spelling); brands are told apart case-insensitively. */
  readonly brands: readonly string[];
  readonly brandByKey: ReadonlyMap<string, number>;
  /** Categories of the generation, by index. */
  readonly categories: readonly CategoryRecord[];
  readonly categoryByExternalId: ReadonlyMap<string, number>;
  /** Categories by the last path segment of their URL (link-handle.ts); two alike: the smaller platform id. */
  readonly categoryBySlug: ReadonlyMap<string, number>;
  /** Per row, its known categories with all their ancestors (CSR: rows' slices of catList). */
  readonly catStart: Int32Array;
  readonly catList: Int32Array;
  readonly locationByIdx: readonly string[];
  readonly locationById: ReadonlyMap<string, number>;
  /** Per row, its locations; an empty slice is everywhere. */
  readonly locStart: Int32Array;
  readonly locList: Int32Array;
  /** Param names, and each (name, value) pair: pairKey[pair] is the name's index, pairValue[pair] the value's text. */
  readonly paramKeys: readonly string[];
  readonly paramKeyByName: ReadonlyMap<string, number>;
  readonly pairKey: Int32Array;
  readonly pairValue: readonly string[];
  readonly pairByKeyValue: ReadonlyMap<string, number>;
  /** Per row, its distinct (name, value) pairs. */
  readonly parStart: Int32Array;
  readonly parList: Int32Array;
}

/** The key that tells brands apart: trimmed, lower-cased. */
export function brandKey(name: string): string {
  return name.trim().toLowerCase();
}

/** A (param name, value) pair's key: the name's index is digits, so the first NUL ends it whatever the value holds. */
export function pairKeyOf(keyIndex: number, value: string): string {
  return `${keyIndex}\u0000${value}`;
}

/** Longest ancestor chain walked; the import breaks loops, this only bounds a bad row. */
const MAX_CATEGORY_DEPTH = 64;

/** Rows in listing order: sales_rate high to low, none last, then offer id. */
export function listingOrder(a: FacetSource, b: FacetSource): number {
  if (a.salesRate !== b.salesRate) {
    if (a.salesRate === null) return 1;
    if (b.salesRate === null) return -1;
    return b.salesRate - a.salesRate;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function buildFacetIndex(sources: readonly FacetSource[], categories: readonly CategoryRecord[]): FacetIndex {
  const rows = [...sources].sort(listingOrder);
  const size = rows.length;
  const categoryByExternalId = new Map(categories.map((c, i) => [c.externalId, i]));
  const ancestry = categoryAncestry(categories, categoryByExternalId);

  const brands: string[] = [];
  const brandByKey = new Map<string, number>();
  const locationByIdx: string[] = [];
  const locationById = new Map<string, number>();
  const paramKeys: string[] = [];
  const paramKeyByName = new Map<string, number>();
  const pairKeys: number[] = [];
  const pairValue: string[] = [];
  const pairByKeyValue = new Map<string, number>();

  const ids: string[] = new Array<string>(size);
  const rowOf = new Map<string, number>();
  const price = new Float64Array(size);
  const discount = new Float64Array(size);
  const brandOf = new Int32Array(size);
  const catStart = new Int32Array(size + 1);
  const locStart = new Int32Array(size + 1);
  const parStart = new Int32Array(size + 1);
  const catList: number[] = [];
  const locList: number[] = [];
  const parList: number[] = [];

  for (let row = 0; row < size; row++) {
    const source = rows[row]!;
    ids[row] = source.id;
    rowOf.set(source.id, row);
    price[row] = source.price;
    discount[row] = source.oldprice !== null && source.oldprice > source.price ? (source.oldprice - source.price) / source.oldprice : 0;
    brandOf[row] =
      source.vendor === null || source.vendor.trim() === ''
        ? -1
        : intern(brandKey(source.vendor), source.vendor.trim(), brands, brandByKey);

    catStart[row] = catList.length;
    const seenCategories = new Set<number>();
    for (const externalId of source.categoryIds) {
      const own = categoryByExternalId.get(externalId);
      if (own === undefined) continue;
      for (const category of ancestry[own]!) {
        if (!seenCategories.has(category)) {
          seenCategories.add(category);
          catList.push(category);
        }
      }
    }

    locStart[row] = locList.length;
    for (const location of new Set(source.locationIds)) locList.push(intern(location, location, locationByIdx, locationById));

    parStart[row] = parList.length;
    const seenPairs = new Set<number>();
    for (const param of source.params) {
      const key = intern(param.key, param.key, paramKeys, paramKeyByName);
      for (const raw of param.values) {
        const value = String(raw);
        let pair = pairByKeyValue.get(pairKeyOf(key, value));
        if (pair === undefined) {
          pair = pairValue.length;
          pairValue.push(value);
          pairKeys.push(key);
          pairByKeyValue.set(pairKeyOf(key, value), pair);
        }
        if (!seenPairs.has(pair)) {
          seenPairs.add(pair);
          parList.push(pair);
        }
      }
    }
  }
  catStart[size] = catList.length;
  locStart[size] = locList.length;
  parStart[size] = parList.length;

  return {
    size,
    ids,
    rowOf,
    price,
    discount,
    brandOf,
    brands,
    brandByKey,
    categories,
    categoryByExternalId,
    categoryBySlug: slugIndex(categories),
    catStart,
    catList: Int32Array.from(catList),
    locationByIdx,
    locationById,
    locStart,
    locList: Int32Array.from(locList),
    paramKeys,
    paramKeyByName,
    pairKey: Int32Array.from(pairKeys),
    pairValue,
    pairByKeyValue,
    parStart,
    parList: Int32Array.from(parList),
  };
}

/** Rows the index holds (a weight for caches). */
export function facetIndexWeight(index: FacetIndex): number {
  return Math.max(1, index.size + index.catList.length / 4 + index.parList.length / 4);
}

function intern(key: string, display: string, list: string[], byKey: Map<string, number>): number {
  let index = byKey.get(key);
  if (index === undefined) {
    index = list.length;
    list.push(display);
    byKey.set(key, index);
  }
  return index;
}

/** For each category, itself and its ancestors (nearest first). */
function categoryAncestry(categories: readonly CategoryRecord[], byExternalId: ReadonlyMap<string, number>): number[][] {
  return categories.map((category, index) => {
    const chain = [index];
    let parent = category.parentExternalId;
    while (parent !== null && chain.length < MAX_CATEGORY_DEPTH) {
      const next = byExternalId.get(parent);
      if (next === undefined || chain.includes(next)) break;
      chain.push(next);
      parent = categories[next]!.parentExternalId;
    }
    return chain;
  });
}

function slugIndex(categories: readonly CategoryRecord[]): Map<string, number> {
  const bySlug = new Map<string, number>();
  categories.forEach((category, i) => {
    const slug = category.url === null ? undefined : categorySlug(category.url);
    if (slug === undefined) return;
    const held = bySlug.get(slug);
    if (held === undefined || category.id < categories[held]!.id) bySlug.set(slug, i);
  });
  return bySlug;
}
