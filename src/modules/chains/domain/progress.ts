import { minutesInTimezone } from '../../checkout/index.js';
import type { Condition, Step } from './definition.js';

/**
 * How a run moves through its steps (docs/chains.md "Steps"). Pure: the clock's reading,
 * the shop's time zone and the facts a condition reads are arguments.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** What a condition reads beside the run's variables; the service loads only the one it needs. */
export type FactNeed = 'variables' | 'purchased' | 'properties' | 'level' | 'segments' | 'opened' | 'clicked';

export interface Facts {
  readonly variables: Readonly<Record<string, unknown>>;
  /** A purchase by the profile since the run started. */
  readonly purchased?: boolean;
  /** The profile's fields and custom properties by record name. */
  readonly properties?: Readonly<Record<string, unknown>>;
  /** The profile's loyalty level code; null without one. */
  readonly level?: string | null;
  readonly segments?: readonly number[];
  /** A message of this chain to the profile opened (or clicked) since the run started. */
  readonly opened?: boolean;
  readonly clicked?: boolean;
}

export type Verdict = { readonly pass: true } | { readonly pass: false; readonly reason: string };

export function factNeeded(condition: Condition): FactNeed {
  if ('variable' in condition) return 'variables';
  if ('purchased' in condition) return 'purchased';
  if ('property' in condition) return 'properties';
  if ('level' in condition) return 'level';
  if ('segment' in condition) return 'segments';
  if ('opened' in condition) return 'opened';
  return 'clicked';
}

/**
 * A condition against the facts. A variable or property that never came is false, with
 * the reason saying so: the run exits and records why, it never waits for it.
 */
export function evaluate(condition: Condition, facts: Facts): Verdict {
  const pass: Verdict = { pass: true };
  if ('variable' in condition) {
    return compare(`variable \`${condition.variable}\``, facts.variables[condition.variable], condition.equals);
  }
  if ('property' in condition) {
    return compare(`property \`${condition.property}\``, facts.properties?.[condition.property], condition.equals);
  }
  if ('purchased' in condition) {
    const purchased = facts.purchased === true;
    return purchased === condition.purchased
      ? pass
      : { pass: false, reason: purchased ? 'purchased since the start' : 'no purchase since the start' };
  }
  if ('level' in condition) {
    return facts.level === condition.level
      ? pass
      : { pass: false, reason: `loyalty level is ${facts.level ?? 'none'}, not ${condition.level}` };
  }
  if ('segment' in condition) {
    return facts.segments?.includes(condition.segment) ? pass : { pass: false, reason: `not in segment ${condition.segment}` };
  }
  const [what, happened] =
    'opened' in condition ? (['opened', facts.opened === true] as const) : (['clicked', facts.clicked === true] as const);
  const wanted = 'opened' in condition ? condition.opened : condition.clicked;
  return happened === wanted ? pass : { pass: false, reason: happened ? `a message was ${what}` : `no message was ${what}` };
}

function compare(subject: string, actual: unknown, expected: string | number | boolean): Verdict {
  if (actual === undefined || actual === null) return { pass: false, reason: `${subject} is absent` };
  // Query strings carry every variable as text: "5" equals 5, "true" equals true.
  const scalar = typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean';
  if (actual === expected || (scalar && String(actual) === String(expected))) return { pass: true };
  return { pass: false, reason: `${subject} is not ${String(expected)}` };
}

/**
 * When a wait step that begins at `now` ends: after its seconds, or at the next time of
 * day `until` (HH:MM) in the shop's time zone, strictly after now. Across a change of
 * the zone's offset the instant is corrected once, so it lands on the wall-clock time
 * (or just after it, where that time is skipped).
 */
export function waitEnds(step: Step, now: number, timezone: string): number {
  if (!('wait' in step)) return now;
  if ('seconds' in step.wait) return now + step.wait.seconds * 1000;
  const [hours, minutes] = step.wait.until.split(':').map(Number) as [number, number];
  const target = hours * 60 + minutes;
  const minuteStart = now - (now % MINUTE_MS);
  const current = minutesInTimezone(now, timezone);
  let due = minuteStart + ((target - current + 1440) % 1440) * MINUTE_MS;
  if (due <= now) due += DAY_MS;
  const drift = target - minutesInTimezone(due, timezone);
  if (drift !== 0) {
    const corrected = due + (((drift + 720 + 1440) % 1440) - 720) * MINUTE_MS;
    if (corrected > now) due = corrected;
  }
  return due;
}
