/**
 * Retry timing for failed jobs: pure, no clock, no randomness.
 * The delay doubles with every failed attempt, starting at `baseMs`, and never
 * exceeds `maxMs`, so a job that keeps failing is retried at a steady, bounded pace.
 */
export interface BackoffPolicy {
  /** Delay after the first failed attempt, in ms. */
  readonly baseMs: number;
  /** The longest delay, in ms. */
  readonly maxMs: number;
}

/** Delay before the next try after `failedAttempts` attempts (1-based) have failed. */
export function retryDelayMs(failedAttempts: number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, Math.floor(failedAttempts) - 1);
  // 2 ** exponent is Infinity for huge exponents; Math.min then yields the cap.
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}

/** Describes what is wrong with a policy, or undefined when it is usable. */
export function backoffPolicyProblem(policy: BackoffPolicy): string | undefined {
  if (!Number.isInteger(policy.baseMs) || policy.baseMs < 0) return 'backoffMs must be an integer of 0 or more';
  if (!Number.isInteger(policy.maxMs) || policy.maxMs < policy.baseMs) {
    return 'maxBackoffMs must be an integer no smaller than backoffMs';
  }
  return undefined;
}
