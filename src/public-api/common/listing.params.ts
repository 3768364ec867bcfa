import { indexedArray, isPlainObject, type PublicInput } from '../../http/input.js';
import { readInteger, validationError } from '../../http/readers.js';
import { minorUnits } from '../../modules/catalog/domain/price.js';
import type { ListingFilters } from '../../modules/catalog/domain/facet-filters.js';
import { LISTING_SORT_KEYS, type FacetLimits, type ListingSort } from '../../modules/catalog/domain/facets.js';
import { readIdList } from './common.params.js';

/**
 * The filter and page parameters shared by GET /search, GET /products and GET
 * /category/{id} (docs/search.md "Filters and facets"), read in this order: page, limit,
 * offset, brands, categories, locations, price_min, price_max, filters, exclude, sort_by,
 * sort_dir (or its other name `order`), category_limit, brand_limit. Each bad one is 422
 * naming it; an empty value counts as absent.
 */

export const DEFAULT_LISTING_LIMIT = 20;
export const MAX_LISTING_LIMIT = 100;
/** Pages beyond are refused: no storefront pages that deep, and it bounds the walk. */
export const MAX_LISTING_PAGE = 1000;
/** `offset` bound: as deep as the last page of the largest pages. */
export const MAX_LISTING_OFFSET = MAX_LISTING_PAGE * MAX_LISTING_LIMIT;
/**
 * `category_limit` / `brand_limit` bound. The SDKs' docs give 1000 as brand_limit's
 * default, above the facets' own cap (MAX_FACET_ENTRIES), which still applies.
 */
export const MAX_FACET_LIMIT = 100_000;
/** Brands, categories and locations named at most. */
export const MAX_FILTER_IDS = 100;
/** `filters`: param names at most, values per name, characters per name or value, characters of its JSON text. */
export const MAX_FILTER_PARAMS = 20;
export const MAX_FILTER_VALUES = 100;
export const MAX_FILTER_TEXT_LENGTH = 255;
export const MAX_FILTERS_JSON_LENGTH = 16_000;
/** Highest price_min / price_max, in currency units: beyond any price a feed holds. */
export const MAX_FILTER_PRICE = 1_000_000_000_000;

export interface ListingParams {
  readonly page: number;
  readonly limit: number;
  /** Matches skipped; given, it wins over `page` (the iOS SDK and the docs page by offset). */
  readonly offset?: number;
  readonly filters: ListingFilters;
  readonly sort?: ListingSort;
  readonly facetLimits?: FacetLimits;
}

export function readListingParams(input: PublicInput, limits: { readonly maxLimit?: number } = {}): ListingParams {
  const maxLimit = limits.maxLimit ?? MAX_LISTING_LIMIT;
  const page = input.page === '' ? undefined : readInteger(input, 'page', { optional: true, min: 1, max: MAX_LISTING_PAGE });
  const limit = input.limit === '' ? undefined : readInteger(input, 'limit', { optional: true, min: 1, max: maxLimit });
  const offset = readOptionalCount(input, 'offset', MAX_LISTING_OFFSET);
  const brands = readFilterIds(input, 'brands');
  const categories = readFilterIds(input, 'categories');
  const locations = readFilterIds(input, 'locations');
  const priceMin = readPrice(input, 'price_min');
  const priceMax = readPrice(input, 'price_max');
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    throw validationError('price_min', 'must not be greater than `price_max`');
  }
  const params = readParamFilters(input);
  // Offer ids a client already shows: as long as every id list (1,000 ids).
  const exclude = readIdList(input, 'exclude');
  const sort = readSort(input);
  const categoryLimit = readOptionalCount(input, 'category_limit', MAX_FACET_LIMIT);
  const brandLimit = readOptionalCount(input, 'brand_limit', MAX_FACET_LIMIT);
  return {
    page: page ?? 1,
    limit: limit ?? DEFAULT_LISTING_LIMIT,
    ...(offset !== undefined && { offset }),
    ...(sort && { sort }),
    ...((categoryLimit !== undefined || brandLimit !== undefined) && {
      facetLimits: {
        ...(categoryLimit !== undefined && { categories: categoryLimit }),
        ...(brandLimit !== undefined && { brands: brandLimit }),
      },
    }),
    filters: {
      ...(brands && { brands }),
      ...(categories && { categories }),
      ...(locations && { locations }),
      ...(priceMin !== undefined && { priceMin: minorUnits(priceMin) }),
      ...(priceMax !== undefined && { priceMax: minorUnits(priceMax) }),
      ...(params && { params }),
      ...(exclude && { exclude }),
    },
  };
}

/**
 * `sort_by` (LISTING_SORT_KEYS) and its direction `sort_dir` (`asc`, `desc` by default),
 * which the SDKs' current docs call `order`; `sort_dir` wins when both are given (as `sid`
 * over `seance`). A direction alone orders nothing; `relevance` is the given order.
 */
function readSort(input: PublicInput): ListingSort | undefined {
  const by = readChoice(input, 'sort_by', LISTING_SORT_KEYS);
  const directions = ['asc', 'desc'] as const;
  const dir = readChoice(input, 'sort_dir', directions) ?? readChoice(input, 'order', directions);
  return by === undefined || by === 'relevance' ? undefined : { by, dir: dir ?? 'desc' };
}

/** An optional integer from 0 to `max`; empty is absent. */
function readOptionalCount(input: PublicInput, name: string, max: number): number | undefined {
  return input[name] === '' ? undefined : readInteger(input, name, { optional: true, min: 0, max });
}

function readChoice<T extends string>(input: PublicInput, name: string, choices: readonly T[]): T | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw validationError(name, `must be one of ${choices.map((c) => `\`${c}\``).join(', ')}`);
  }
  return value as T;
}

/** A comma-separated list (or an array) of at most MAX_FILTER_IDS names. */
function readFilterIds(input: PublicInput, name: string): string[] | undefined {
  const ids = readIdList(input, name);
  if (ids !== undefined && ids.length > MAX_FILTER_IDS) throw validationError(name, `must have at most ${MAX_FILTER_IDS} values`);
  return ids;
}

/** A non-negative number of currency units (`1990.50`). */
function readPrice(input: PublicInput, name: string): number | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  let parsed: number | undefined;
  if (typeof value === 'number') parsed = value;
  else if (typeof value === 'string' && /^\s*(\d{1,13}(\.\d*)?|\.\d+)\s*$/.test(value)) parsed = Number(value);
  if (parsed === undefined || !Number.isFinite(parsed) || parsed < 0 || parsed > MAX_FILTER_PRICE) {
    throw validationError(name, `must be a number from 0 to ${MAX_FILTER_PRICE}`);
  }
  return parsed;
}

const FILTERS_SHAPE = 'must be a JSON object of param names to arrays of values';

/**
 * `filters`: the feed params a product must have, as the SDKs send it, a JSON object text
 * (`{"Цвет":["red","blue"],"Размер":["42"]}`), or an object (a JSON body, or
 * `filters[Цвет][]=red`). A single value may stand for an array of one; numbers are read
 * as their text, as the params of a JSON feed are.
 */
function readParamFilters(input: PublicInput): Map<string, string[]> | undefined {
  let value = input.filters;
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') {
    if (value.length > MAX_FILTERS_JSON_LENGTH) {
      throw validationError('filters', `must be at most ${MAX_FILTERS_JSON_LENGTH} characters`);
    }
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw validationError('filters', FILTERS_SHAPE);
    }
  }
  if (!isPlainObject(value)) throw validationError('filters', FILTERS_SHAPE);
  const entries = Object.entries(value);
  if (entries.length > MAX_FILTER_PARAMS) throw validationError('filters', `must name at most ${MAX_FILTER_PARAMS} params`);
  const params = new Map<string, string[]>();
  for (const [key, raw] of entries) {
    if (key.length === 0 || key.length > MAX_FILTER_TEXT_LENGTH) {
      throw validationError('filters', `must name params of 1 to ${MAX_FILTER_TEXT_LENGTH} characters`);
    }
    // `filters[Цвет][0]=red` (indexed brackets: the mobile SDK's GET encoding of an array) is that array.
    const list: unknown[] = Array.isArray(raw) ? raw : (indexedArray(raw) ?? [raw]);
    if (list.length > MAX_FILTER_VALUES) throw validationError('filters', `must have at most ${MAX_FILTER_VALUES} values per param`);
    const values: string[] = [];
    for (const element of list) {
      const text = typeof element === 'number' && Number.isFinite(element) ? String(element) : element;
      if (typeof text !== 'string') throw validationError('filters', FILTERS_SHAPE);
      if (text.length > MAX_FILTER_TEXT_LENGTH) {
        throw validationError('filters', `must have values of at most ${MAX_FILTER_TEXT_LENGTH} characters`);
      }
      values.push(text);
    }
    if (values.length > 0) params.set(key, values);
  }
  return params.size === 0 ? undefined : params;
}
