/**
 * A token bucket: `ratePerSecond` tokens a second, at most `burst` saved up. Pure: the
 * caller passes the time (a monotonic clock, since a send rate is about wall time, not
 * about the business clock). `take` answers how long to wait before the taken token may
 * be used: 0 when one was available.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private ratePerSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token now or reserves the next one; returns the wait in ms. */
  take(now: number): number {
    this.refill(now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
  }

  setRate(ratePerSecond: number): void {
    this.ratePerSecond = ratePerSecond;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.ratePerSecond);
  }
}
