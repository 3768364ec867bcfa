/**
 * The non-personal recommenders: popular (decayed sales, diversified by category),
 * trending (an item's growth against its own past) and buying_now (the last 24 hours).
 * Pure: the purchases and `now` come in as arguments.
 */

export interface Purchase {
  readonly item: string;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly quantity: number;
}

export interface ScoredItem {
  readonly id: string;
  readonly score: number;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_DIVERSITY_FACTOR = 0.8;

/** Higher score first, then id: equal inputs always give equal lists. */
export function compareScored(a: ScoredItem, b: ScoredItem): number {
  if (a.score !== b.score) return b.score > a.score ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** 1 at `now`, halving every `halfLifeDays`; an event after `now` counts as at `now`. */
export function decayWeight(at: number, now: number, halfLifeDays: number): number {
  const age = Math.max(0, now - at);
  return Math.pow(2, -age / (halfLifeDays * DAY_MS));
}

/** A half-life of 0 or less would turn every weight into 0 or NaN: a configuration bug, not data. */
export function assertHalfLife(halfLifeDays: number): void {
  if (!(halfLifeDays > 0) || !Number.isFinite(halfLifeDays))
    throw new RangeError(`Half-life must be a positive number of days: ${halfLifeDays}.`);
}

/**
 * Each item's quantity sold, each purchase weighted by its age, so that last season's
 * best-seller fades instead of holding the top for good.
 */
export function decayedSales(purchases: Iterable<Purchase>, now: number, halfLifeDays: number): Map<string, number> {
  assertHalfLife(halfLifeDays);
  const scores = new Map<string, number>();
  for (const purchase of purchases) {
    if (!(purchase.quantity > 0) || !Number.isFinite(purchase.quantity)) continue;
    const weight = decayWeight(purchase.at, now, halfLifeDays);
    scores.set(purchase.item, (scores.get(purchase.item) ?? 0) + purchase.quantity * weight);
  }
  return scores;
}

export interface DiversifyOptions {
  readonly limit: number;
  /** The item's category for diversity; undefined leaves the item unpenalised. */
  readonly categoryOf: (id: string) => string | undefined;
  /** The k-th pick of a category already picked has its score multiplied by factor^k. */
  readonly factor?: number;
}

/**
 * A greedy top-N where each category already in the list lowers the next pick from it,
 * so that one category cannot fill a block. The penalty only lowers scores, so the scan
 * for the best pick stops at the first item whose raw score cannot beat the best found.
 */
export function diversify(scores: Iterable<ScoredItem>, options: DiversifyOptions): ScoredItem[] {
  const factor = options.factor ?? DEFAULT_DIVERSITY_FACTOR;
  const sorted = [...scores].filter((item) => item.score > 0).sort(compareScored);
  const categories = sorted.map((item) => options.categoryOf(item.id));
  const picked = new Array<boolean>(sorted.length).fill(false);
  const perCategory = new Map<string, number>();
  const result: ScoredItem[] = [];
  let first = 0;
  while (result.length < options.limit) {
    while (first < sorted.length && picked[first]) first++;
    let best = -1;
    let bestScore = -Infinity;
    for (let position = first; position < sorted.length; position++) {
      const item = sorted[position] as ScoredItem;
      if (item.score <= bestScore) break;
      if (picked[position]) continue;
      const category = categories[position];
      const seen = category === undefined ? 0 : (perCategory.get(category) ?? 0);
      const effective = item.score * Math.pow(factor, seen);
      // Strictly greater: of equal effective scores the earlier in raw order wins, as a tie must go one fixed way.
      if (effective > bestScore) {
        best = position;
        bestScore = effective;
      }
    }
    if (best < 0) break;
    picked[best] = true;
    const category = categories[best];
    if (category !== undefined) perCategory.set(category, (perCategory.get(category) ?? 0) + 1);
    result.push({ id: (sorted[best] as ScoredItem).id, score: bestScore });
  }
  return result;
}

export interface PopularOptions extends DiversifyOptions {
  readonly now: number;
  readonly halfLifeDays: number;
}

/** popular: decayed sales, diversified by category. */
export function popular(purchases: Iterable<Purchase>, options: PopularOptions): ScoredItem[] {
  const sales = decayedSales(purchases, options.now, options.halfLifeDays);
  return diversify(
    [...sales].map(([id, score]) => ({ id, score })),
    options,
  );
}

export interface TrendingOptions {
  readonly now: number;
  readonly limit: number;
  /** Length of the recent window; the past is `pastWindows` windows of the same length before it. */
  readonly windowMs: number;
  readonly pastWindows: number;
  /** Smoothing: an item new this window scores (recent+α)/α rather than infinity. */
  readonly alpha?: number;
  /** Purchases in the recent window below this are too few to call a trend. */
  readonly minRecent?: number;
}

export interface TrendingItem extends ScoredItem {
  readonly recent: number;
  readonly pastPerWindow: number;
}

/**
 * trending: how much an item sells in the recent window against its own past average
 * per window. Counted in purchases, not quantity, so that one bulk order is not a trend.
 */
export function trending(purchases: Iterable<Purchase>, options: TrendingOptions): TrendingItem[] {
  const alpha = options.alpha ?? 1;
  const minRecent = options.minRecent ?? 3;
  const recentFrom = options.now - options.windowMs;
  const pastFrom = recentFrom - options.windowMs * options.pastWindows;
  const counts = new Map<string, { recent: number; past: number }>();
  for (const purchase of purchases) {
    if (purchase.at > options.now || purchase.at <= pastFrom) continue;
    let count = counts.get(purchase.item);
    if (count === undefined) counts.set(purchase.item, (count = { recent: 0, past: 0 }));
    if (purchase.at > recentFrom) count.recent++;
    else count.past++;
  }
  const items: TrendingItem[] = [];
  for (const [id, { recent, past }] of counts) {
    if (recent < minRecent) continue;
    const pastPerWindow = options.pastWindows > 0 ? past / options.pastWindows : 0;
    items.push({ id, score: (recent + alpha) / (pastPerWindow + alpha), recent, pastPerWindow });
  }
  return items.sort(compareScored).slice(0, Math.max(0, options.limit));
}

/** buying_now: purchases in the 24 hours up to `now`, by how many purchases, not quantity. */
export function buyingNow(purchases: Iterable<Purchase>, options: { readonly now: number; readonly limit: number }): ScoredItem[] {
  const from = options.now - DAY_MS;
  const counts = new Map<string, number>();
  for (const purchase of purchases) {
    if (purchase.at > from && purchase.at <= options.now) counts.set(purchase.item, (counts.get(purchase.item) ?? 0) + 1);
  }
  return [...counts]
    .map(([id, score]) => ({ id, score }))
    .sort(compareScored)
    .slice(0, Math.max(0, options.limit));
}
