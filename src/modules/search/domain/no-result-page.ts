import type { NoResultQuery } from './search-log.js';

/**
 * The admin UI's page of searches with no results (docs/admin-lists.md), from the whole
 * grouped list: most frequent first, then by query in code-unit order (the same in every
 * database's collation, so that a key taken from one page finds its place in the next).
 * Pure.
 */

export interface NoResultKey {
  readonly quantity: number;
  readonly query: string;
}

export function orderNoResultQueries(groups: readonly NoResultQuery[]): NoResultQuery[] {
  return [...groups].sort((a, b) => b.quantity - a.quantity || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
}

/** The `limit` groups after `after` in the order of orderNoResultQueries, and whether more follow. */
export function noResultPage(
  ordered: readonly NoResultQuery[],
  after: NoResultKey | null,
  limit: number,
): { items: NoResultQuery[]; more: boolean } {
  const start =
    after === null ? 0 : ordered.findIndex((g) => g.quantity < after.quantity || (g.quantity === after.quantity && g.query > after.query));
  const from = start === -1 ? ordered.length : start;
  return { items: ordered.slice(from, from + limit), more: from + limit < ordered.length };
}
