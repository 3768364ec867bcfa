import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenBucket } from './domain/token-bucket.js';

/** Sends per second per process for a shop's channel vendor, unless its settings say `rate_per_second`. */
export const DEFAULT_RATE_PER_SECOND = 200;

/**
 * The send rate of each shop, channel and vendor in this process (docs/messaging.md,
 * "Delivery"): a token bucket per key, `rate_per_second` tokens a second with a burst of
 * one second's worth; a setting changed takes effect at the next send.
 */
export class SendRates {
  private readonly buckets = new Map<string, TokenBucket>();

  /** Resolves once a send under `key` may go; rejects when `signal` aborts the wait. */
  async wait(key: string, ratePerSecond: number | null, signal: AbortSignal | undefined): Promise<void> {
    const rate = ratePerSecond ?? DEFAULT_RATE_PER_SECOND;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(rate, rate, performance.now());
      this.buckets.set(key, bucket);
    }
    bucket.setRate(rate);
    const wait = bucket.take(performance.now());
    if (wait > 0) await sleep(wait, undefined, signal ? { signal } : {});
  }
}
