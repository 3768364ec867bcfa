/** Time is injected so that expiry, limits, sessions and backoff are exact in tests. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock for tests: starts at a fixed instant and moves only when told. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
