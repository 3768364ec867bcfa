/**
 * Product counters (interface.md, "Product counters": `now` is the last 30 minutes,
 * `daily` the last day), kept pre-aggregated per time bucket as events arrive, so that
 * reading them takes a handful of rows. Pure.
 *
 * Windows are whole buckets aligned to the epoch: `now` counts the current 5-minute
 * bucket and the 5 before it, `daily` the current hour and the 23 before it. So an event
 * counts while its bucket is among the last 6 (or 24), which reaches back between 25 and
 * 30 minutes (23 and 24 hours): never further than the window, and at a bucket's first
 * millisecond the bucket that just left is no longer counted. Exactly: an event at time
 * t counts in a window of bucket length b and n buckets at `now` when
 * floor(t / b) ≥ floor(now / b) − (n − 1).
 */
import type { ProductActivityCounters, ProductCounterWindow } from '../tracking.types.js';

export type CounterKind = 'view' | 'cart' | 'purchase';

export interface CounterWindow {
  readonly name: keyof ProductActivityCounters;
  /** Bucket length in minutes: the stored `granularity`. */
  readonly granularity: number;
  readonly buckets: number;
  /** Buckets older than this are deleted when the shop's counters are pruned. */
  readonly retainMs: number;
}

const MINUTE = 60_000;

export const NOW_WINDOW: CounterWindow = { name: 'now', granularity: 5, buckets: 6, retainMs: 60 * MINUTE };
export const DAILY_WINDOW: CounterWindow = { name: 'daily', granularity: 60, buckets: 24, retainMs: 26 * 60 * MINUTE };
export const COUNTER_WINDOWS: readonly CounterWindow[] = [NOW_WINDOW, DAILY_WINDOW];

export function bucketStart(time: number, granularity: number): number {
  const length = granularity * MINUTE;
  return Math.floor(time / length) * length;
}

/** The first and last bucket starts (inclusive) a window counts at `now`. */
export function windowRange(window: CounterWindow, now: number): { from: number; to: number } {
  const to = bucketStart(now, window.granularity);
  return { from: to - (window.buckets - 1) * window.granularity * MINUTE, to };
}

/** Every bucket start a window counts at `now`, oldest first. */
export function windowBuckets(window: CounterWindow, now: number): number[] {
  const { from } = windowRange(window, now);
  return Array.from({ length: window.buckets }, (_, i) => from + i * window.granularity * MINUTE);
}

export interface CounterHit {
  readonly shopId: string;
  readonly time: number;
  readonly kind: CounterKind;
  readonly itemIds: readonly string[];
}

export interface CounterDelta {
  readonly shopId: string;
  readonly itemId: string;
  readonly granularity: number;
  readonly bucket: number;
  views: number;
  carts: number;
  purchases: number;
}

const FIELD = { view: 'views', cart: 'carts', purchase: 'purchases' } as const;

/**
 * One row per (shop, item, granularity, bucket) touched by the hits, with how much each
 * counter grows. An event counts once per item id, however often the id repeats in it.
 */
export function aggregateCounterHits(hits: readonly CounterHit[]): CounterDelta[] {
  const rows = new Map<string, CounterDelta>();
  for (const hit of hits) {
    for (const itemId of new Set(hit.itemIds)) {
      for (const window of COUNTER_WINDOWS) {
        const bucket = bucketStart(hit.time, window.granularity);
        const key = JSON.stringify([hit.shopId, itemId, window.granularity, bucket]);
        let row = rows.get(key);
        if (!row) {
          row = { shopId: hit.shopId, itemId, granularity: window.granularity, bucket, views: 0, carts: 0, purchases: 0 };
          rows.set(key, row);
        }
        row[FIELD[hit.kind]] += 1;
      }
    }
  }
  return [...rows.values()];
}

export interface CounterRow {
  readonly granularity: number;
  readonly bucket: number;
  readonly views: number;
  readonly carts: number;
  readonly purchases: number;
}

/** Sums the stored rows of one item into the windows at `now`; rows outside a window are ignored. */
export function sumCounterWindows(rows: readonly CounterRow[], now: number): ProductActivityCounters {
  const sum = (window: CounterWindow): ProductCounterWindow => {
    const { from, to } = windowRange(window, now);
    const total = { view: 0, cart: 0, purchase: 0 };
    for (const row of rows) {
      if (row.granularity !== window.granularity || row.bucket < from || row.bucket > to) continue;
      total.view += row.views;
      total.cart += row.carts;
      total.purchase += row.purchases;
    }
    return total;
  };
  return { now: sum(NOW_WINDOW), daily: sum(DAILY_WINDOW) };
}
