import { PairTable } from './pair-table.js';

/**
 * Item-to-item neighbours from baskets (also_bought from orders, also_viewed from the
 * products viewed in one session). The counts are kept in an accumulator so that the
 * rebuild job can feed it in chunks from a cursor; only the end result is ranked.
 * Pure: no I/O, no clock.
 */

export type Similarity = 'jaccard' | 'lift';

export interface Neighbour {
  readonly id: string;
  readonly score: number;
  /** Baskets holding both items. */
  readonly coCount: number;
}

export interface CoOccurrenceOptions {
  /** Distinct items kept per basket, the most recent ones: pairs grow with its square. */
  readonly maxBasketItems?: number;
  /** Distinct pairs held before the rarest are dropped (see `prune`). */
  readonly maxPairs?: number;
}

export interface NeighbourOptions {
  readonly similarity?: Similarity;
  /** Pairs seen together fewer times are noise, however high their ratio. */
  readonly minCoCount?: number;
}

export interface CoOccurrenceStats {
  readonly baskets: number;
  readonly items: number;
  readonly pairs: number;
  /** Pairs dropped by pruning; when above 0, co-counts are lower bounds. */
  readonly prunedPairs: number;
}

export const DEFAULT_MAX_BASKET_ITEMS = 50;
export const DEFAULT_MAX_PAIRS = 2_000_000;
export const DEFAULT_MIN_CO_COUNT = 2;

/** Distinct items at most (interned item numbers are stored as 32-bit integers). */
const ITEM_SLOTS = 2 ** 30;
/** Its square is the work of one basket, so the option is held to this. */
export const MAX_BASKET_ITEMS = 200;
/**
 * The pair table's ceiling (pair-table.ts: 12 bytes a slot, at most half full), so that a
 * configured budget cannot ask for gigabytes. Pruning runs after a basket is counted, so
 * the ceiling leaves room for one basket's pairs (200·199/2) above maxPairs.
 */
const MAX_PAIRS_CEILING = 2 ** 24 - 2 ** 15;
/** Pruning keeps this share of maxPairs, so that it does not run again at once. */
const PRUNE_KEEP = 0.75;
/** Co-counts above this fall in one histogram bucket when choosing what to prune. */
const PRUNE_HISTOGRAM = 64;

/** |A∩B| / |A∪B|: 1 for items always bought together, whatever their sales. */
export function jaccard(coCount: number, supportA: number, supportB: number): number {
  const union = supportA + supportB - coCount;
  return union > 0 ? coCount / union : 0;
}

/** c(a,b) / (c(a)·c(b)): favours rare items that go together over best-sellers. */
export function lift(coCount: number, supportA: number, supportB: number): number {
  const product = supportA * supportB;
  return product > 0 ? coCount / product : 0;
}

/** Orders a neighbour list: higher score first, then id, so equal inputs give equal lists. */
export function ranksBefore(a: Neighbour, b: Neighbour): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

export class CoOccurrence {
  private readonly maxBasketItems: number;
  private readonly maxPairs: number;
  private readonly index = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly supports: number[] = [];
  private readonly pairs = new PairTable();
  private baskets = 0;
  private prunedPairs = 0;

  constructor(options: CoOccurrenceOptions = {}) {
    this.maxBasketItems = Math.min(MAX_BASKET_ITEMS, Math.max(1, Math.floor(options.maxBasketItems ?? DEFAULT_MAX_BASKET_ITEMS)));
    this.maxPairs = Math.min(MAX_PAIRS_CEILING, Math.max(1, Math.floor(options.maxPairs ?? DEFAULT_MAX_PAIRS)));
  }

  /** Counts one basket: its items deduplicated, the last `maxBasketItems` of them kept. */
  add(basket: readonly string[]): void {
    const kept = new Set<string>();
    for (let position = basket.length - 1; position >= 0 && kept.size < this.maxBasketItems; position--) {
      const id = basket[position];
      if (id !== undefined && id !== '') kept.add(id);
    }
    if (kept.size === 0) return;
    this.baskets++;
    const numbers: number[] = [];
    for (const id of kept) {
      const number = this.intern(id);
      this.supports[number] = (this.supports[number] ?? 0) + 1;
      numbers.push(number);
    }
    for (let a = 0; a < numbers.length; a++) {
      for (let b = a + 1; b < numbers.length; b++) this.pairs.increment(numbers[a]!, numbers[b]!);
    }
    if (this.pairs.size > this.maxPairs) this.prune();
  }

  /** Baskets that held the item. */
  support(id: string): number {
    const number = this.index.get(id);
    return number === undefined ? 0 : (this.supports[number] ?? 0);
  }

  /** Baskets that held both items (0 for an item with itself). */
  coCount(a: string, b: string): number {
    const x = this.index.get(a);
    const y = this.index.get(b);
    if (x === undefined || y === undefined || x === y) return 0;
    return this.pairs.get(x, y);
  }

  similarity(a: string, b: string, similarity: Similarity = 'jaccard'): number {
    return score(similarity, this.coCount(a, b), this.support(a), this.support(b));
  }

  stats(): CoOccurrenceStats {
    return { baskets: this.baskets, items: this.ids.length, pairs: this.pairs.size, prunedPairs: this.prunedPairs };
  }

  /**
   * Each item's best `topN` neighbours, items in id order. One pass over the pairs with a
   * bounded list per item, so the work is linear in pairs and no full list is sorted.
   */
  neighbours(topN: number, options: NeighbourOptions = {}): Map<string, Neighbour[]> {
    const similarity = options.similarity ?? 'jaccard';
    const minCoCount = Math.max(1, options.minCoCount ?? DEFAULT_MIN_CO_COUNT);
    const limit = Math.floor(topN);
    const lists: Neighbour[][] = [];
    if (limit >= 1) {
      this.pairs.forEach((low, high, coCount) => {
        if (coCount < minCoCount) return;
        const value = score(similarity, coCount, this.supports[low] ?? 0, this.supports[high] ?? 0);
        offer((lists[low] ??= []), { id: this.ids[high] as string, score: value, coCount }, limit);
        offer((lists[high] ??= []), { id: this.ids[low] as string, score: value, coCount }, limit);
      });
    }
    const result = new Map<string, Neighbour[]>();
    const order = [...this.index.entries()].filter(([, number]) => lists[number] !== undefined);
    order.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [id, number] of order) result.set(id, lists[number] as Neighbour[]);
    return result;
  }

  private intern(id: string): number {
    let number = this.index.get(id);
    if (number === undefined) {
      number = this.ids.length;
      if (number >= ITEM_SLOTS) throw new RangeError(`CoOccurrence holds at most ${ITEM_SLOTS} distinct items.`);
      this.index.set(id, number);
      this.ids.push(id);
      this.supports.push(0);
    }
    return number;
  }

  /**
   * Past maxPairs, the pairs with the lowest co-counts go, down to PRUNE_KEEP of the
   * budget: a pair seen once or twice in a long history is the least likely to ever rank.
   * A dropped pair that comes back starts again from 0, so its count becomes a lower bound.
   */
  private prune(): void {
    const keep = Math.floor(this.maxPairs * PRUNE_KEEP);
    const histogram = this.pairs.histogram(PRUNE_HISTOGRAM);
    let threshold = 0;
    let remaining = this.pairs.size;
    while (remaining > keep && threshold < PRUNE_HISTOGRAM) {
      threshold++;
      remaining -= histogram[threshold] ?? 0;
    }
    this.prunedPairs += this.pairs.dropAtMost(threshold);
  }
}

function score(similarity: Similarity, coCount: number, supportA: number, supportB: number): number {
  return similarity === 'lift' ? lift(coCount, supportA, supportB) : jaccard(coCount, supportA, supportB);
}

/** Inserts into a list kept sorted and no longer than `limit`. */
function offer(list: Neighbour[], candidate: Neighbour, limit: number): void {
  const last = list[list.length - 1];
  if (list.length >= limit && last !== undefined && !ranksBefore(candidate, last)) return;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ranksBefore(list[middle] as Neighbour, candidate)) low = middle + 1;
    else high = middle;
  }
  list.splice(low, 0, candidate);
  if (list.length > limit) list.pop();
}
