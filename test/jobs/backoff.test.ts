import { describe, expect, it } from 'vitest';
import { backoffPolicyProblem, retryDelayMs } from '../../src/jobs/backoff.js';

describe('retryDelayMs', () => {
  const policy = { baseMs: 1000, maxMs: 60_000 };

  it('waits the base delay after the first failed attempt and doubles it after each further one', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, policy))).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it('never waits longer than the cap', () => {
    expect(retryDelayMs(6, policy)).toBe(32_000);
    expect(retryDelayMs(7, policy)).toBe(60_000);
    expect(retryDelayMs(50, policy)).toBe(60_000);
  });

  it('stays at the cap for attempt counts whose doubling overflows', () => {
    expect(retryDelayMs(5000, policy)).toBe(60_000);
  });

  it('retries at once when the base delay is zero', () => {
    expect(retryDelayMs(3, { baseMs: 0, maxMs: 1000 })).toBe(0);
  });

  it('treats an attempt count below one as the first attempt', () => {
    expect(retryDelayMs(0, policy)).toBe(1000);
  });
});

describe('backoffPolicyProblem', () => {
  it('accepts a base no larger than the cap', () => {
    expect(backoffPolicyProblem({ baseMs: 0, maxMs: 0 })).toBeUndefined();
    expect(backoffPolicyProblem({ baseMs: 500, maxMs: 500 })).toBeUndefined();
  });

  it('rejects a negative or fractional base and a cap below the base', () => {
    expect(backoffPolicyProblem({ baseMs: -1, maxMs: 10 })).toMatch(/backoffMs/);
    expect(backoffPolicyProblem({ baseMs: 1.5, maxMs: 10 })).toMatch(/backoffMs/);
    expect(backoffPolicyProblem({ baseMs: 100, maxMs: 99 })).toMatch(/maxBackoffMs/);
  });
});
