import type { PublicInput } from '../../http/input.js';
import { readBooleanish, readInteger, readString } from '../../http/readers.js';
import type { CategoryTreeQuery } from '../../modules/catalog/domain/category-tree.js';
import { MAX_ITEM_ID_LENGTH, readIdList } from '../common/common.params.js';

/**
 * Parameters of GET /products/get, /products/counters, /products/categories and
 * /products/not_widgetable (interface.md endpoints 7, 8, 9, 14). Bounds of ours are in
 * docs/catalog-read.md. Values from a query string are strings; an empty optional
 * parameter counts as absent (`depth=` is the default depth).
 */

export const DEFAULT_DEPTH = 10;
/** Deeper asks are served as this: no feed nests a hundred levels, and the walk stays bounded. */
export const MAX_DEPTH = 100;
export const MAX_HIDDEN_PAGE_SIZE = 1000;

/** An offer id parameter (`item_id` of /products/get, `item` of /products/counters); a JSON number is its text. */
export function readItemId(input: PublicInput, name: string): string {
  const value = input[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return readString(input, name, { nonEmpty: true, maxLength: MAX_ITEM_ID_LENGTH });
}

export function toCategoryTreeQuery(input: PublicInput): CategoryTreeQuery {
  const depthGiven = input.depth === '' ? undefined : readInteger(input, 'depth', { optional: true, min: 0 });
  const locations = readIdList(input, 'locations');
  return {
    depth: Math.min(depthGiven ?? DEFAULT_DEPTH, MAX_DEPTH),
    exclude: new Set(readIdList(input, 'exclude') ?? []),
    onlyDiscount: readBooleanish(input, 'only_discount', { default: false }),
    locations: locations === undefined ? null : new Set(locations),
  };
}

/** not_widgetable's page: `page` from 1, `limit` 1 to 1000 (default 1000: every hidden product of most shops). */
export function toHiddenPage(input: PublicInput): { limit: number; offset: number } {
  const page = input.page === '' ? undefined : readInteger(input, 'page', { optional: true, min: 1, max: 1_000_000 });
  const limit = input.limit === '' ? undefined : readInteger(input, 'limit', { optional: true, min: 1, max: MAX_HIDDEN_PAGE_SIZE });
  const size = limit ?? MAX_HIDDEN_PAGE_SIZE;
  return { limit: size, offset: ((page ?? 1) - 1) * size };
}
