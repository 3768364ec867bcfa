/**
 * The purchases of a shop counted as the rebuild reads them in chunks, so that popular,
 * trending and buying_now need per-item sums in memory rather than every purchase. The
 * lists are popularity.ts's (popular is `diversify` over `topSold`); trending and
 * buying_now get back, per item, only the purchases their windows can tell apart.
 * Pure: `now` comes in as an option.
 */
import {
  buyingNow,
  compareScored,
  DAY_MS,
  decayWeight,
  assertHalfLife,
  trending,
  type Purchase,
  type ScoredItem,
  type TrendingItem,
} from './popularity.js';

export interface SalesTallyOptions {
  readonly now: number;
  readonly halfLifeDays: number;
  /** trending's recent window and how many past windows of that length it compares with. */
  readonly trendWindowMs: number;
  readonly trendPastWindows: number;
}

interface WindowCounts {
  recent: number;
  past: number;
  lastDay: number;
}

export class SalesTally {
  private readonly decayed = new Map<string, number>();
  private readonly windows = new Map<string, WindowCounts>();
  private readonly recentFrom: number;
  private readonly pastFrom: number;

  constructor(private readonly options: SalesTallyOptions) {
    assertHalfLife(options.halfLifeDays);
    this.recentFrom = options.now - options.trendWindowMs;
    this.pastFrom = this.recentFrom - options.trendWindowMs * options.trendPastWindows;
  }

  add(purchase: Purchase): void {
    const { now, halfLifeDays } = this.options;
    // As decayedSales: a quantity that is not a positive number counts for nothing.
    if (purchase.quantity > 0 && Number.isFinite(purchase.quantity)) {
      const weight = decayWeight(purchase.at, now, halfLifeDays);
      this.decayed.set(purchase.item, (this.decayed.get(purchase.item) ?? 0) + purchase.quantity * weight);
    }
    if (purchase.at > now) return;
    const inTrend = purchase.at > this.pastFrom;
    const inDay = purchase.at > now - DAY_MS;
    if (!inTrend && !inDay) return;
    let counts = this.windows.get(purchase.item);
    if (counts === undefined) this.windows.set(purchase.item, (counts = { recent: 0, past: 0, lastDay: 0 }));
    if (inTrend) {
      if (purchase.at > this.recentFrom) counts.recent++;
      else counts.past++;
    }
    if (inDay) counts.lastDay++;
  }

  /**
   * The `count` best sellers by decayed sales, best first: popular's candidates. The
   * diversity penalty only lowers scores, so a few times the list's length suffice, and
   * only their categories need reading.
   */
  topSold(count: number): ScoredItem[] {
    return [...this.decayed]
      .map(([id, score]) => ({ id, score }))
      .sort(compareScored)
      .slice(0, Math.max(0, count));
  }

  trending(limit: number, tuning: { readonly alpha?: number; readonly minRecent?: number } = {}): TrendingItem[] {
    const { now, trendWindowMs, trendPastWindows } = this.options;
    const recentAt = now;
    const pastAt = this.recentFrom;
    return trending(
      this.replay((counts) => [
        [recentAt, counts.recent],
        [pastAt, counts.past],
      ]),
      { now, limit, windowMs: trendWindowMs, pastWindows: trendPastWindows, ...tuning },
    );
  }

  buyingNow(limit: number): ScoredItem[] {
    return buyingNow(
      this.replay((counts) => [[this.options.now, counts.lastDay]]),
      { now: this.options.now, limit },
    );
  }

  /** Per item, `count` purchases at each instant: the functions count purchases by window only. */
  private *replay(at: (counts: WindowCounts) => ReadonlyArray<readonly [number, number]>): Generator<Purchase> {
    for (const [item, counts] of this.windows) {
      for (const [instant, count] of at(counts)) {
        for (let n = 0; n < count; n++) yield { item, at: instant, quantity: 1 };
      }
    }
  }
}
