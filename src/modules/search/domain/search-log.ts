import type { StoredEvent } from '../../tracking/index.js';
import { normalizeQuery, type SearchType } from './query.js';

/**
 * What the search log keeps and what GET /search/no_result_queries counts. Pure.
 *
 * - Every GET /search is logged with its type and the number of products found.
 * - The `search` event of POST /push is logged as type `push` with an unknown result
 *   count: the shop's own search answered it, and we do not know what it found. It is
 *   therefore never a "query that found nothing".
 * - A no-result query is a `full_search` that found no product. `instant_search` runs
 *   at each keystroke, and once a prefix finds nothing every longer one finds nothing
 *   too, so counting it would fill the list with half-typed words; the query the user
 *   submits is the full search that follows.
 */

/** interface.md "Limits": the no-result query window is the last two weeks. */
export const NO_RESULT_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Rows of GET /search/no_result_queries at most. */
export const MAX_NO_RESULT_QUERIES = 1000;

export type LoggedSearchType = SearchType | 'push';

export interface SearchLogEntry {
  readonly shopId: string;
  readonly time: number;
  readonly query: string;
  readonly type: LoggedSearchType;
  /** null: unknown (a pushed event). */
  readonly results: number | null;
  readonly did: string | null;
  readonly sid: string | null;
  /** The tracking event of a pushed query: the key that makes its redelivery a no-op. */
  readonly eventId: number | null;
}

export interface NoResultQuery {
  readonly query: string;
  readonly quantity: number;
}

/**
 * A query counts while its age is under the window: at `now`, a query of exactly
 * `now − 14 days` no longer counts. Returns the oldest time that still counts.
 */
export function noResultWindowStart(now: number): number {
  return now - NO_RESULT_WINDOW_MS + 1;
}

/** The log entry of a pushed `search` event, or undefined when it carries no usable query. */
export function entryFromSearchEvent(event: StoredEvent): SearchLogEntry | undefined {
  if (event.custom || event.event !== 'search') return undefined;
  const raw = event.params.search_query;
  if (typeof raw !== 'string') return undefined;
  const query = normalizeQuery(raw);
  if (query === '') return undefined;
  return {
    shopId: event.shopId,
    time: event.time,
    query,
    type: 'push',
    results: null,
    did: event.did,
    // StoredEvent does not carry the session.
    sid: null,
    eventId: event.id,
  };
}
