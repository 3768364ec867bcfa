import type { PublicInput } from '../../http/input.js';
import { readString, validationError } from '../../http/readers.js';
import { MAX_SEARCH_QUERY_LENGTH, SEARCH_TYPES, type SearchType } from '../../modules/search/domain/query.js';
import { MAX_SEARCH_LIMIT, type SearchInput, type ShopCurrency } from '../../modules/search/search.service.js';
import { readListingParams } from '../common/listing.params.js';
import { readOptionalId } from '../common/identity.params.js';

/**
 * Parameters of GET /search (docs/search.md), checked in this order after the
 * credentials: type, search_query, then the listing's (page, limit, offset, brands,
 * categories, locations, price_min, price_max, filters, exclude, sort_by, sort_dir or
 * order, category_limit, brand_limit: common/listing.params.ts), did, sid. Each bad one
 * is 422 naming it.
 */

export function toSearchInput(input: PublicInput, shop: ShopCurrency): SearchInput {
  const type = readSearchType(input);
  const query = readSearchQuery(input);
  const { page, limit, offset, filters, sort, facetLimits } = readListingParams(input, { maxLimit: MAX_SEARCH_LIMIT });
  // Attribution only: an empty did or sid (an SDK without a cookie yet) counts as absent.
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const sid = readOptionalId(input, 'sid', { emptyIsAbsent: true });
  return {
    shop,
    type,
    query,
    limit,
    page,
    ...(offset !== undefined && { offset }),
    filters,
    ...(sort && { sort }),
    ...(facetLimits && { facetLimits }),
    ...(did !== undefined && { did }),
    ...(sid !== undefined && { sid }),
  };
}

function readSearchType(input: PublicInput): SearchType {
  const value = readString(input, 'type');
  if (!(SEARCH_TYPES as readonly string[]).includes(value)) {
    throw validationError('type', `must be one of ${SEARCH_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  }
  return value as SearchType;
}

/** Required, not blank, at most MAX_SEARCH_QUERY_LENGTH characters; a JSON number is its text. */
function readSearchQuery(input: PublicInput): string {
  const value = input.search_query;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const query = readString(input, 'search_query', { nonEmpty: true, maxLength: MAX_SEARCH_QUERY_LENGTH });
  if (query.trim() === '') throw validationError('search_query', 'must be a non-empty string');
  return query;
}
