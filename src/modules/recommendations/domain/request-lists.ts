import { interesting, type HistoryEvent, type HistoryKind } from './personal.js';
import { compareScored, type ScoredItem } from './popularity.js';

/**
 * The request-time lists that need no model: a visitor's history as the personal
 * recommenders read it, recently_viewed, and neighbour lists merged over several anchors.
 * Pure.
 */

/** A stored product event: its name, time and tracked items (JSON text, as tracking keeps them). */
export interface StoredProductEvent {
  readonly event: HistoryKind;
  readonly time: number;
  readonly items: string;
}

export interface CustomerHistory {
  /** One entry per item of each event, newest first. */
  readonly events: readonly HistoryEvent[];
  /** Items purchased at or after `since`. */
  purchasedSince(since: number): Set<string>;
}

/** The history of stored events given newest first; an unreadable items text counts as no items. */
export function historyOf(rows: readonly StoredProductEvent[]): CustomerHistory {
  const events: HistoryEvent[] = [];
  for (const row of rows) {
    for (const id of itemIds(row.items)) events.push({ item: id, kind: row.event, at: row.time });
  }
  return {
    events,
    purchasedSince(since) {
      return new Set(events.filter((e) => e.kind === 'purchase' && e.at >= since).map((e) => e.item));
    },
  };
}

function itemIds(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const ids: string[] = [];
  for (const item of parsed as unknown[]) {
    const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id !== '') ids.push(id);
  }
  return ids;
}

/** recently_viewed: the items viewed, newest view first, each once. */
export function recentlyViewed(events: readonly HistoryEvent[]): string[] {
  const seen = new Set<string>();
  for (const event of events) if (event.kind === 'view') seen.add(event.item);
  return [...seen];
}

/**
 * Several neighbour lists as one: an item's scores summed over the lists it is in, best
 * first (so an item that goes with two of the cart's products ranks above one that goes
 * with one).
 */
export function mergeNeighbours(lists: readonly (readonly ScoredItem[])[]): ScoredItem[] {
  if (lists.length === 1) return [...lists[0]!];
  const scores = new Map<string, number>();
  for (const list of lists) for (const { id, score } of list) scores.set(id, (scores.get(id) ?? 0) + score);
  return [...scores].map(([id, score]) => ({ id, score })).sort(compareScored);
}

/** interesting's recency half-life: the value the offline evaluation measured best on the generated shop. */
export const INTERESTING_HALF_LIFE_DAYS = 30;
/** Items of the history whose neighbours interesting sums: the newest distinct ones. */
export const INTERESTING_ANCHORS = 20;

/** The newest distinct items of a history given newest first. */
export function interestingAnchors(events: readonly HistoryEvent[]): string[] {
  return [...new Set(events.map((event) => event.item))].slice(0, INTERESTING_ANCHORS);
}

/**
 * interesting as GET /recommend answers it and the evaluation measures it: the anchors'
 * bought-together and viewed-together neighbours (summed per item), weighted by the
 * history (personal.ts); `enough` false when the caller should top up with popular.
 */
export function interestingFor(
  events: readonly HistoryEvent[],
  neighbours: (kind: 'also_bought' | 'also_viewed', item: string) => readonly ScoredItem[],
  options: { readonly now: number; readonly limit: number },
): { readonly ids: string[]; readonly enough: boolean } {
  const anchors = new Set(interestingAnchors(events));
  const result = interesting(
    events.filter((event) => anchors.has(event.item)),
    (item) => mergeNeighbours([neighbours('also_bought', item), neighbours('also_viewed', item)]).map((n) => [n.id, n.score] as const),
    { now: options.now, limit: options.limit, halfLifeDays: INTERESTING_HALF_LIFE_DAYS },
  );
  return { ids: result.items.map((item) => item.id), enough: result.enough };
}
