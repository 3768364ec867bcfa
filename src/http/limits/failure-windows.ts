import { KeyedState } from './keyed-state.js';

/**
 * Failed attempts per key in fixed windows: the first failure opens a window of
 * `windowMs`; once `limit` failures fall in it, the key is blocked until the window
 * ends, whatever it sends; then counting starts afresh. So a key can fail at most
 * `limit` times a window. Pure: the time is passed in (milliseconds).
 */
export interface FailureWindowOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxKeys: number;
}

interface Window {
  startedAt: number;
  failures: number;
}

export class KeyedFailureWindows {
  private readonly windows: KeyedState<Window>;

  constructor(private readonly options: FailureWindowOptions) {
    if (!(options.limit >= 1) || !(options.windowMs > 0)) throw new Error('A failure window needs a limit and a length.');
    this.windows = new KeyedState(options.maxKeys);
  }

  /** 0 when `key` may try; otherwise the seconds until its window ends (at least 1). */
  blockedFor(key: string, now: number): number {
    const window = this.windows.peek(key);
    if (window === undefined || window.failures < this.options.limit) return 0;
    const remaining = window.startedAt + this.options.windowMs - now;
    if (remaining <= 0) {
      this.windows.delete(key);
      return 0;
    }
    return Math.max(1, Math.ceil(remaining / 1000));
  }

  recordFailure(key: string, now: number): void {
    const window = this.windows.use(key, () => ({ startedAt: now, failures: 0 }));
    if (now - window.startedAt >= this.options.windowMs || now < window.startedAt) {
      window.startedAt = now;
      window.failures = 0;
    }
    window.failures += 1;
  }

  get size(): number {
    return this.windows.size;
  }
}
