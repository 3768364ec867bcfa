import type { SearchTerm } from '../../../db/search-index.js';

/**
 * Search queries as the index reads them, and as the log keeps them. Pure.
 *
 * A query is split into words at every character that is neither a letter nor a digit,
 * which is how both indexes split the products' texts (db/search-index.ts): `iPhone-15` is the
 * two words `iphone` and `15` on either side. Words are lower-cased and `ё` is read as
 * `е`, as in the index.
 */

/** interface.md's two search types (the `recommended_by` values of a result click). */
export const SEARCH_TYPES = ['full_search', 'instant_search'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Longest search_query accepted (GET /search and the search event of POST /push alike). */
export const MAX_SEARCH_QUERY_LENGTH = 1000;
/** Words of a query that take part in matching; a search box query has a handful. */
export const MAX_SEARCH_WORDS = 16;
/** Longer words are cut; no product text has words this long. */
export const MAX_SEARCH_WORD_LENGTH = 64;

const WHITESPACE = /\s+/gu;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * The query as logged and counted: NFC, trimmed, lower-cased, each run of whitespace one
 * space, at most MAX_SEARCH_QUERY_LENGTH characters (lower-casing may lengthen a
 * string; a cut never splits a surrogate pair). `''` when nothing but whitespace.
 */
export function normalizeQuery(raw: string): string {
  const normalized = raw.normalize('NFC').trim().toLowerCase().replace(WHITESPACE, ' ');
  return cutCodeUnits(normalized, MAX_SEARCH_QUERY_LENGTH).trimEnd();
}

/**
 * The words a normalised query searches for. Every word must match; with
 * `instant_search` the last word also matches the longer words it starts (the user is
 * still typing it). A query longer than MAX_SEARCH_WORDS keeps its first words and its
 * last one. No words (`!!!`) means nothing can match.
 */
export function searchTerms(normalized: string, type: SearchType): SearchTerm[] {
  let words = normalized
    .replace(/ё/gu, 'е')
    .split(WORD_SEPARATORS)
    .filter((word) => word !== '')
    .map((word) => cutCodeUnits(word, MAX_SEARCH_WORD_LENGTH));
  if (words.length > MAX_SEARCH_WORDS) words = [...words.slice(0, MAX_SEARCH_WORDS - 1), words[words.length - 1]!];
  const last = words.length - 1;
  return words.map((text, index) => ({ text, prefix: type === 'instant_search' && index === last }));
}

function cutCodeUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastCode = cut.charCodeAt(cut.length - 1);
  // A high surrogate at the end lost its pair.
  return lastCode >= 0xd800 && lastCode <= 0xdbff ? cut.slice(0, -1) : cut;
}
