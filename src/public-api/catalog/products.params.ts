import type { FastifyRequest } from 'fastify';
import { indexedArray, type PublicInput } from '../../http/input.js';
import { readBooleanish, readInteger, readString, validationError } from '../../http/readers.js';
import type { CategoryTreeQuery } from '../../modules/catalog/domain/category-tree.js';

/**
 * Parameters of GET /products/get, /products/counters, /products/categories and
 * /products/not_widgetable (interface.md endpoints 7, 8, 9, 14). Bounds of ours are in
 * docs/catalog-read.md. Values from a query string are strings; an empty optional
 * parameter counts as absent (`depth=` is the default depth).
 */

/** Offer ids: the contract's item id bound (interface.md, "Tracked item"). */
export const MAX_ITEM_ID_LENGTH = 255;
export const DEFAULT_DEPTH = 10;
/** Deeper asks are served as this: no feed nests a hundred levels, and the walk stays bounded. */
export const MAX_DEPTH = 100;
export const MAX_LIST_IDS = 1000;
export const MAX_LIST_TEXT_LENGTH = 64_000;
export const MAX_HIDDEN_PAGE_SIZE = 1000;

/** An offer id parameter (`item_id` of /products/get, `item` of /products/counters); a JSON number is its text. */
export function readItemId(input: PublicInput, name: string): string {
  const value = input[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return readString(input, name, { nonEmpty: true, maxLength: MAX_ITEM_ID_LENGTH });
}

/**
 * interface.md "Versioning": the standard envelope is asked for with `v=2` (any
 * parameter source) or the header `Accept-Version: 2`; anything else gets the bare data.
 */
export function wantsEnvelope(request: FastifyRequest): boolean {
  const v = request.input.v;
  if (v === '2' || v === 2) return true;
  const header = request.headers['accept-version'];
  return (Array.isArray(header) ? header[0] : header)?.trim() === '2';
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

/**
 * A comma-separated list of ids (`exclude=1,2`), also accepted as an array
 * (`exclude[]=1&exclude[]=2`); blanks around ids and empty entries are dropped.
 * Absent or empty: undefined.
 */
export function readIdList(input: PublicInput, name: string): string[] | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  let parts: unknown[];
  if (typeof value === 'string') {
    if (value.length > MAX_LIST_TEXT_LENGTH) throw validationError(name, `must be at most ${MAX_LIST_TEXT_LENGTH} characters`);
    parts = value.split(',');
  } else if (typeof value === 'number') {
    parts = [String(value)];
  } else if (Array.isArray(value) || indexedArray(value) !== undefined) {
    // `brands[0]=a&brands[1]=b` (indexed brackets) is the array it spells.
    const list: unknown[] = Array.isArray(value) ? value : indexedArray(value)!;
    parts = list.map((part: unknown) => (typeof part === 'number' ? String(part) : part));
  } else {
    throw validationError(name, 'must be a comma-separated list of ids');
  }
  const ids: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string') throw validationError(name, 'must be a comma-separated list of ids');
    const id = part.trim();
    if (id === '') continue;
    if (id.length > MAX_ITEM_ID_LENGTH) throw validationError(name, `must hold ids of at most ${MAX_ITEM_ID_LENGTH} characters`);
    ids.push(id);
  }
  if (ids.length > MAX_LIST_IDS) throw validationError(name, `must have at most ${MAX_LIST_IDS} ids`);
  return ids.length === 0 ? undefined : ids;
}

/** not_widgetable's page: `page` from 1, `limit` 1 to 1000 (default 1000: every hidden product of most shops). */
export function toHiddenPage(input: PublicInput): { limit: number; offset: number } {
  const page = input.page === '' ? undefined : readInteger(input, 'page', { optional: true, min: 1, max: 1_000_000 });
  const limit =
    input.limit === '' ? undefined : readInteger(input, 'limit', { optional: true, min: 1, max: MAX_HIDDEN_PAGE_SIZE });
  const size = limit ?? MAX_HIDDEN_PAGE_SIZE;
  return { limit: size, offset: ((page ?? 1) - 1) * size };
}
