import type { FacetIndex } from '../../catalog/index.js';
import type { ProductFacts } from './similar.js';

/**
 * What the recommenders read of the served catalog at request time: the facet index of
 * the served generation (catalog's domain/facet-index.ts), which holds exactly the
 * products a storefront may show (widgetable, not ignored, in stock), in listing order.
 * Pure: the index comes in as an argument; what is derived from it is built once per
 * index by the caller (`categoryRows`).
 */

/** Rows per category (every category a row is in, ancestors included), as compressed slices. */
export interface CategoryRows {
  readonly start: Int32Array;
  readonly rows: Int32Array;
}

export function categoryRows(index: FacetIndex): CategoryRows {
  const counts = new Int32Array(index.categories.length + 1);
  for (let i = 0; i < index.catList.length; i++) {
    const slot = index.catList[i]! + 1;
    counts[slot] = counts[slot]! + 1;
  }
  const start = new Int32Array(index.categories.length + 1);
  for (let c = 0; c < index.categories.length; c++) start[c + 1] = start[c]! + counts[c + 1]!;
  const fill = start.slice(0, index.categories.length);
  const rows = new Int32Array(index.catList.length);
  for (let row = 0; row < index.size; row++) {
    for (let i = index.catStart[row]!; i < index.catStart[row + 1]!; i++) {
      const category = index.catList[i]!;
      rows[fill[category]!] = row;
      fill[category] = fill[category]! + 1;
    }
  }
  return { start, rows };
}

/** A row's categories (indexes), ancestors included. */
export function rowCategories(index: FacetIndex, row: number): number[] {
  return Array.from(index.catList.subarray(index.catStart[row], index.catStart[row + 1]));
}

/**
 * The most specific of these categories: those that are no other one's ancestor. The
 * index stores each product's categories with all their ancestors, and "same category"
 * means the product's own, not the root every product shares.
 */
export function leafCategories(index: FacetIndex, categories: readonly number[]): number[] {
  const parents = new Set<number>();
  for (const category of categories) {
    const parentId = index.categories[category]?.parentExternalId;
    const parent = parentId === null || parentId === undefined ? undefined : index.categoryByExternalId.get(parentId);
    if (parent !== undefined) parents.add(parent);
  }
  return categories.filter((category) => !parents.has(category));
}

/** Feed category ids (with their ancestors) as index categories; unknown ids are dropped. */
export function knownCategories(index: FacetIndex, externalIds: readonly string[]): number[] {
  const found: number[] = [];
  for (const id of externalIds) {
    const category = index.categoryByExternalId.get(id);
    if (category !== undefined) found.push(category);
  }
  return found;
}

/** A row as similarProducts takes it: its own (leaf) categories, its price and its params. */
export function rowFacts(index: FacetIndex, row: number): ProductFacts {
  const categories = leafCategories(index, rowCategories(index, row)).map((c) => index.categories[c]!.externalId);
  const params: Record<string, string[]> = {};
  for (let i = index.parStart[row]!; i < index.parStart[row + 1]!; i++) {
    const pair = index.parList[i]!;
    const name = index.paramKeys[index.pairKey[pair]!]!;
    (params[name] ??= []).push(index.pairValue[pair]!);
  }
  return { id: index.ids[row]!, price: index.price[row]!, categories, params };
}

/**
 * The rows of these categories (each once), in listing order within each category, at
 * most `max`: the candidates of `similar`. A category of tens of thousands of products
 * is cut at `max`, the best-selling first, so the work per request stays bounded.
 */
export function rowsInCategories(byCategory: CategoryRows, categories: readonly number[], max: number): number[] {
  const seen = new Set<number>();
  const found: number[] = [];
  for (const category of categories) {
    for (let i = byCategory.start[category]!; i < byCategory.start[category + 1]! && found.length < max; i++) {
      const row = byCategory.rows[i]!;
      if (!seen.has(row)) {
        seen.add(row);
        found.push(row);
      }
    }
  }
  return found;
}

/** The first `max` offer ids in listing order (the feed's sales_rate, then id): popular before any event. */
export function feedOrder(index: FacetIndex, max: number): string[] {
  return index.ids.slice(0, Math.max(0, max));
}
