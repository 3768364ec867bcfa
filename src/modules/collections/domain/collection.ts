/**
 * A product collection: a named list of offer ids an operator keeps in the admin API,
 * served by GET /collection/{id}. Pure rules: the id's shape, the list's bounds, and
 * which products of the list a reader sees. Decisions: docs/shopper-reads.md.
 */
import { MAX_ITEM_ID_LENGTH } from '../../tracking/index.js';

/** Ids are chosen by the operator: the SDKs send them as a number or a string. */
export const COLLECTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const COLLECTION_ID_MAX_LENGTH = 64;
export const MAX_COLLECTION_NAME_LENGTH = 255;
/** Most products in one collection (ours): a storefront shelf, not a catalog. */
export const MAX_COLLECTION_PRODUCTS = 500;
/** Offer ids follow the tracked item's rule (interface.md: at most 255 characters). */
export const MAX_PRODUCT_ID_LENGTH = MAX_ITEM_ID_LENGTH;

export interface Collection {
  readonly id: string;
  readonly name: string;
  /** Offer ids in display order, each once. */
  readonly productIds: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export function isValidCollectionId(id: string): boolean {
  return COLLECTION_ID_PATTERN.test(id);
}

export type ProductIdsCheck =
  | { readonly ok: true; readonly productIds: readonly string[] }
  | { readonly ok: false; readonly field: string; readonly requirement: string };

/**
 * The list as stored: each id once, at its first place. An id that is empty, only
 * spaces, longer than MAX_PRODUCT_ID_LENGTH or holding a control character is refused,
 * naming its index.
 */
export function checkProductIds(ids: readonly string[]): ProductIdsCheck {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [index, id] of ids.entries()) {
    // eslint-disable-next-line no-control-regex
    if (id.trim() === '' || id.length > MAX_PRODUCT_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(id)) {
      return {
        ok: false,
        field: `product_ids[${index}]`,
        requirement: `must be 1 to ${MAX_PRODUCT_ID_LENGTH} characters without control characters`,
      };
    }
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return { ok: true, productIds: out };
}

/** What a reader needs of a product to place it: its offer id and the locations it is sold in. */
export interface PlacedProduct {
  readonly id: string;
  /** Location ids; none means everywhere. */
  readonly locations: readonly string[];
}

/**
 * The collection's products a reader sees, in the collection's order: those the served
 * catalog has (an id the feed lacks is left out, so a collection outlives a product
 * leaving the feed and shows it again when it comes back) and, with a `location`, those
 * sold there or everywhere.
 */
export function visibleProducts<P extends PlacedProduct>(
  productIds: readonly string[],
  served: ReadonlyMap<string, P>,
  location: string | undefined,
): P[] {
  const out: P[] = [];
  for (const id of productIds) {
    const product = served.get(id);
    if (!product) continue;
    if (location !== undefined && product.locations.length > 0 && !product.locations.includes(location)) continue;
    out.push(product);
  }
  return out;
}
