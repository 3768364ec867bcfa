import { KeyedState } from './keyed-state.js';

/**
 * A token bucket per key: it holds at most `capacity` tokens, gains `perSecond` tokens
 * a second, and each request takes one. Pure: the time is passed in (milliseconds).
 */
export interface TokenBucketOptions {
  readonly capacity: number;
  readonly perSecond: number;
  readonly maxKeys: number;
}

/** 0 when the request may go on; otherwise the seconds until a token is there again (at least 1). */
export type RetryAfterSeconds = number;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class KeyedTokenBuckets {
  private readonly buckets: KeyedState<Bucket>;

  constructor(private readonly options: TokenBucketOptions) {
    if (!(options.capacity >= 1) || !(options.perSecond > 0)) {
      throw new Error('A token bucket needs a capacity of at least 1 and a positive rate.');
    }
    this.buckets = new KeyedState(options.maxKeys);
  }

  take(key: string, now: number): RetryAfterSeconds {
    const { capacity, perSecond } = this.options;
    const bucket = this.buckets.use(key, () => ({ tokens: capacity, updatedAt: now }));
    // A clock that steps back (a test, an NTP correction) refills nothing rather than draining.
    const elapsed = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(capacity, bucket.tokens + (elapsed * perSecond) / 1000);
    bucket.updatedAt = Math.max(bucket.updatedAt, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }

  /** Keys held now (bounded by maxKeys). */
  get size(): number {
    return this.buckets.size;
  }
}
