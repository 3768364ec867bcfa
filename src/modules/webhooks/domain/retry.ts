import { retryDelayMs, type BackoffPolicy } from '../../../jobs/backoff.js';

/**
 * What one delivery attempt's answer means (docs/webhooks.md, "Retries"), after the
 * Standard Webhooks specification: 2xx is success; 410 Gone says the receiver wants no
 * more (the endpoint is disabled); anything else, a redirect included, is a failure
 * retried with exponential backoff until the attempts run out. An address the guard
 * refuses or a URL that does not parse is a settings problem no retry can mend.
 */

/** Attempts of one delivery in all, the first included. */
export const MAX_ATTEMPTS = 15;
/** 30 s after the first failure, doubling, at most 6 h: 15 attempts span about 32 hours. */
export const RETRY_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 6 * 60 * 60 * 1000 };
/** Each delay is spread over ±10% so that a receiver's outage does not end in a thundering herd. */
const JITTER = 0.1;

/** The HTTP answer of an attempt, or the reason there was none. */
export type AttemptAnswer =
  | { readonly ok: true; readonly status: number; readonly retryAfterMs?: number }
  | { readonly ok: false; readonly code: string; readonly reason: string };

export type AttemptVerdict =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'retry'; readonly error: string; readonly delayMs: number }
  | { readonly kind: 'failed'; readonly error: string }
  /** 410 Gone: the delivery fails and the endpoint is disabled. */
  | { readonly kind: 'gone'; readonly error: string };

/**
 * The verdict on attempt number `attempt` (1-based). `jitter` is a number in [0, 1) drawn
 * by the caller; 0.5 means no spread.
 */
export function judgeAttempt(answer: AttemptAnswer, attempt: number, jitter: number): AttemptVerdict {
  let error: string;
  let retryAfterMs: number | undefined;
  if (answer.ok) {
    if (answer.status >= 200 && answer.status <= 299) return { kind: 'succeeded' };
    if (answer.status === 410) return { kind: 'gone', error: 'The endpoint answered HTTP 410 Gone; it was disabled.' };
    error = `The endpoint answered HTTP ${answer.status}.`;
    retryAfterMs = answer.retryAfterMs;
  } else {
    if (answer.code === 'refused_address' || answer.code === 'invalid_url') return { kind: 'failed', error: answer.reason };
    // The request was taken and may have been acted on: not sent again.
    if (answer.code === 'too_large')
      return { kind: 'failed', error: 'The answer was too large to read; the delivery may have been received.' };
    error = answer.reason;
  }
  if (attempt >= MAX_ATTEMPTS) return { kind: 'failed', error: `${error} No attempts are left.` };
  return { kind: 'retry', error, delayMs: nextDelayMs(attempt, jitter, retryAfterMs) };
}

/** The wait after `failedAttempts` failures: the backoff with its jitter, or the receiver's Retry-After when longer (within the cap). */
export function nextDelayMs(failedAttempts: number, jitter: number, retryAfterMs?: number): number {
  const spread = 1 - JITTER + 2 * JITTER * Math.min(Math.max(jitter, 0), 1);
  const backoff = Math.round(retryDelayMs(failedAttempts, RETRY_BACKOFF) * spread);
  return Math.min(RETRY_BACKOFF.maxMs, Math.max(backoff, retryAfterMs ?? 0));
}
