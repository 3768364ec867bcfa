import { indexedArray, type PublicInput } from '../../http/input.js';
import { readBooleanish, readInteger, readString, validationError } from '../../http/readers.js';
import { MAX_BLOCK_LIMIT } from '../../modules/recommendations/domain/block.js';
import type { RecommendQuery } from '../../modules/recommendations/recommend.service.js';
import { MAX_ITEM_ID_LENGTH } from '../common/common.params.js';

/**
 * The parameters of GET /recommend/{code} (contract-notes "Beyond interface.md"), as the
 * three SDKs send them (docs/mobile-sdk.md "`recommend` in the three SDKs"). A list may
 * come comma-joined (`exclude=3,14`), as JSON text (`exclude=["3","14"]`) or in brackets
 * (`exclude[]=3`, `exclude[0]=3`); a JSON number is an id's text. Booleans: `true`, `1`
 * true; `false`, `0`, empty false. Each bad value is 422 naming it; an empty one counts as
 * absent. Bounds are ours: docs/recommendations.md "GET /recommend".
 */

/** `exclude`: every product a long page already shows. */
export const MAX_EXCLUDE_IDS = 10_000;
/** Categories, locations and brands named at most. */
export const MAX_FILTER_IDS = 100;
export const MAX_SEARCH_QUERY_LENGTH = 255;
/** Characters of one list parameter's text: MAX_EXCLUDE_IDS ids of a usual length. */
const MAX_LIST_TEXT_LENGTH = 640_000;

export interface RecommendParams extends RecommendQuery {
  readonly extended: boolean;
  /** A thumbnail size the product pictures are answered at (`resize_image`). */
  readonly resizeImage?: number;
}

export function readRecommendParams(code: string, input: PublicInput): RecommendParams {
  const item = readId(input, 'item') ?? readId(input, 'item_id');
  const categories = readList(input, 'categories', MAX_FILTER_IDS) ?? readList(input, 'category', MAX_FILTER_IDS);
  const exclude = readList(input, 'exclude', MAX_EXCLUDE_IDS);
  const searchQuery =
    input.search_query === '' ? undefined : readString(input, 'search_query', { optional: true, maxLength: MAX_SEARCH_QUERY_LENGTH });
  const locations = readList(input, 'locations', MAX_FILTER_IDS);
  const brands = readList(input, 'brands', MAX_FILTER_IDS);
  const excludeBrands = readList(input, 'exclude_brands', MAX_FILTER_IDS);
  const limit = input.limit === '' ? undefined : readInteger(input, 'limit', { optional: true });
  const page = input.page === '' ? undefined : readInteger(input, 'page', { optional: true, min: 1 });
  const resize = input.resize_image === '' ? undefined : readInteger(input, 'resize_image', { optional: true, min: 1, max: 10_000 });
  return {
    code,
    ...(typeof input.did === 'string' && input.did !== '' && { did: input.did }),
    ...(item !== undefined && { item }),
    ...(categories && { categories }),
    ...(exclude && { exclude }),
    ...(searchQuery !== undefined && searchQuery.trim() !== '' && { searchQuery }),
    // A limit above the most a block holds is served as that most; 0 or less as the block's own.
    ...(limit !== undefined && limit >= 1 && { limit: Math.min(limit, MAX_BLOCK_LIMIT) }),
    page: page ?? 1,
    ...(locations && { locations }),
    ...(brands && { brands }),
    ...(excludeBrands && { excludeBrands }),
    discount: readBooleanish(input, 'discount', { default: false }),
    extended: readBooleanish(input, 'extended', { default: false }),
    ...(resize !== undefined && { resizeImage: resize }),
  };
}

function readId(input: PublicInput, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return readString(input, name, { maxLength: MAX_ITEM_ID_LENGTH });
}

/** A list in any of the three encodings; absent, empty or only blanks: undefined. */
export function readList(input: PublicInput, name: string, max: number): string[] | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  const invalid = () => validationError(name, 'must be a list of ids: comma-separated, a JSON array or bracketed');
  let parts: unknown[];
  if (typeof value === 'string') {
    if (value.length > MAX_LIST_TEXT_LENGTH) throw validationError(name, `must be at most ${MAX_LIST_TEXT_LENGTH} characters`);
    parts = value.trimStart().startsWith('[') ? jsonArray(value, invalid) : value.split(',');
  } else if (typeof value === 'number') {
    parts = [value];
  } else if (Array.isArray(value) || indexedArray(value) !== undefined) {
    parts = Array.isArray(value) ? value : indexedArray(value)!;
  } else {
    throw invalid();
  }
  if (parts.length > max * 2) throw validationError(name, `must have at most ${max} ids`);
  const ids: string[] = [];
  for (const part of parts) {
    const text = typeof part === 'number' && Number.isFinite(part) ? String(part) : part;
    if (typeof text !== 'string') throw invalid();
    const id = text.trim();
    if (id === '') continue;
    if (id.length > MAX_ITEM_ID_LENGTH) throw validationError(name, `must hold ids of at most ${MAX_ITEM_ID_LENGTH} characters`);
    ids.push(id);
  }
  if (ids.length > max) throw validationError(name, `must have at most ${max} ids`);
  return ids.length === 0 ? undefined : ids;
}

function jsonArray(text: string, invalid: () => Error): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed)) throw invalid();
  return parsed;
}
