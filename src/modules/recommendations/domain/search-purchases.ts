import { compareScored, type ScoredItem } from './popularity.js';

/**
 * The `search` recommender's model: for each search query, what the customers who
 * searched it bought afterwards (on the same device, within `windowMs`). A purchase is
 * credited to every distinct query the device searched in the window before it, once per
 * (query, device, item), so one customer's repeat orders do not outweigh many customers.
 * Pure: searches and orders come in as arguments, searches first.
 */

export interface SearchPurchasesOptions {
  /** How long after a search a purchase still counts as its outcome. */
  readonly windowMs: number;
  /** Searches kept per device (its newest); older ones are dropped. */
  readonly maxSearchesPerDevice?: number;
}

export const DEFAULT_MAX_SEARCHES_PER_DEVICE = 50;

export class SearchPurchases {
  private readonly searches = new Map<string, Array<{ readonly at: number; readonly query: string }>>();
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly credited = new Set<string>();
  private readonly max: number;

  constructor(private readonly options: SearchPurchasesOptions) {
    this.max = options.maxSearchesPerDevice ?? DEFAULT_MAX_SEARCHES_PER_DEVICE;
  }

  /** A normalised, non-empty query searched on a device. */
  addSearch(did: string, at: number, query: string): void {
    if (query === '') return;
    let list = this.searches.get(did);
    if (!list) {
      list = [];
      this.searches.set(did, list);
    }
    list.push({ at, query });
    if (list.length > this.max * 2) {
      list.sort((a, b) => a.at - b.at);
      list.splice(0, list.length - this.max);
    }
  }

  /** An order of the device: its items are credited to the queries searched in the window before it. */
  addOrder(did: string, at: number, items: readonly string[]): void {
    const list = this.searches.get(did);
    if (!list || items.length === 0) return;
    if (list.length > this.max) {
      list.sort((a, b) => a.at - b.at);
      list.splice(0, list.length - this.max);
    }
    const queries = new Set<string>();
    for (const search of list) if (search.at <= at && at - search.at <= this.options.windowMs) queries.add(search.query);
    for (const query of queries) {
      let credits = this.counts.get(query);
      if (!credits) {
        credits = new Map();
        this.counts.set(query, credits);
      }
      for (const item of new Set(items)) {
        const key = `${query}\u0000${did}\u0000${item}`;
        if (this.credited.has(key)) continue;
        this.credited.add(key);
        credits.set(item, (credits.get(item) ?? 0) + 1);
      }
    }
  }

  /** Per query, its items best first (customers who bought them), at most `topN`. */
  lists(topN: number): Map<string, ScoredItem[]> {
    const out = new Map<string, ScoredItem[]>();
    for (const [query, items] of this.counts) {
      const ranked = [...items].map(([id, score]) => ({ id, score })).sort(compareScored);
      out.set(query, ranked.slice(0, Math.max(0, topN)));
    }
    return out;
  }
}
