/**
 * Loyalty levels, pure (docs/loyalty.md "Levels"): a member's level is the highest one
 * whose `minTotal` the sum of its confirmed purchases in the window reaches, and it holds
 * until that sum falls below `minTotal` again. No I/O, no clock: `now` is an argument.
 */

export const DAY_MS = 86_400_000;
export const MAX_LEVELS = 20;
export const MIN_WINDOW_DAYS = 1;
export const MAX_WINDOW_DAYS = 3650;
export const LEVEL_CODE_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const LEVEL_NAME_MAX_LENGTH = 100;

export interface LevelDef {
  readonly code: string;
  readonly name: string;
  /** Minor units. */
  readonly minTotal: number;
  /** Hundredths of a percent. */
  readonly rewardPercent: number;
}

/** A shop's levels, ordered by `minTotal` ascending (strictly). */
export interface Ladder {
  readonly windowDays: number;
  readonly levels: readonly LevelDef[];
}

/** A confirmed purchase: minor units (> 0) at an instant (ms). */
export interface PurchasePoint {
  readonly amount: number;
  readonly at: number;
}

export interface MemberLevel {
  /** Null below the lowest level (or with no levels). */
  readonly level: LevelDef | null;
  /** The earliest instant after `now` at which the level drops with no more purchases; null: never (or no level). */
  readonly expiresAt: number | null;
  /** The windowed sum at `now`, minor units. */
  readonly total: number;
}

export type LadderCheck = { readonly ok: true } | { readonly ok: false; readonly field: string; readonly requirement: string };

/**
 * The rules of a ladder beyond the shape of its fields: at most MAX_LEVELS levels, codes
 * unique, `minTotal` strictly increasing in the order given (so the order of the list is
 * the order of the levels), the window within bounds.
 */
export function checkLadder(ladder: Ladder): LadderCheck {
  const { windowDays, levels } = ladder;
  if (!Number.isSafeInteger(windowDays) || windowDays < MIN_WINDOW_DAYS || windowDays > MAX_WINDOW_DAYS) {
    return { ok: false, field: 'window_days', requirement: `must be an integer between ${MIN_WINDOW_DAYS} and ${MAX_WINDOW_DAYS}` };
  }
  if (levels.length > MAX_LEVELS) return { ok: false, field: 'levels', requirement: `must hold at most ${MAX_LEVELS} levels` };
  const seen = new Set<string>();
  for (const [i, level] of levels.entries()) {
    if (!LEVEL_CODE_PATTERN.test(level.code)) {
      return { ok: false, field: `levels[${i}].code`, requirement: 'must be 1 to 32 characters of a-z, 0-9, _ and -' };
    }
    if (seen.has(level.code)) return { ok: false, field: `levels[${i}].code`, requirement: 'must be unique in the ladder' };
    seen.add(level.code);
    const previous = levels[i - 1];
    if (previous && level.minTotal <= previous.minTotal) {
      return { ok: false, field: `levels[${i}].min_total`, requirement: 'must be greater than the min_total of the level before it' };
    }
  }
  return { ok: true };
}

/** The sum of the purchases in the window ending at `t`: those made in (t − window, t]. */
export function windowedSum(purchases: readonly PurchasePoint[], windowMs: number, t: number): number {
  let sum = 0;
  for (const p of purchases) if (p.at <= t && p.at > t - windowMs) sum += p.amount;
  return sum;
}

/** The highest level `total` reaches; null below the lowest. */
export function levelFor(levels: readonly LevelDef[], total: number): LevelDef | null {
  let reached: LevelDef | null = null;
  for (const level of levels) if (level.minTotal <= total && (reached === null || level.minTotal > reached.minTotal)) reached = level;
  return reached;
}

/**
 * The member's level at `now` and when it would drop if nothing more were bought. A
 * purchase counts from its instant until `window` later (exclusive), so the sum only
 * falls when a purchase leaves the window; the expiry is the first such instant after
 * `now` at which the sum is below the level's `minTotal`. A level of `minTotal` 0 never
 * drops. Purchases dated after `now` join the sum at their instant, as they would.
 */
export function memberLevel(ladder: Ladder, purchases: readonly PurchasePoint[], now: number): MemberLevel {
  const windowMs = ladder.windowDays * DAY_MS;
  const total = windowedSum(purchases, windowMs, now);
  const level = levelFor(ladder.levels, total);
  if (level === null || level.minTotal === 0) return { level, expiresAt: null, total };
  // A sweep over the purchases in time order: prefix sums, and two pointers that only move forward.
  const sorted = [...purchases].sort((a, b) => a.at - b.at);
  const prefix = [0];
  for (const p of sorted) prefix.push((prefix.at(-1) ?? 0) + p.amount);
  let upTo = 0; // purchases with at <= t
  let leftBy = 0; // purchases with at <= t - window
  for (const p of sorted) {
    const t = p.at + windowMs;
    if (t <= now) continue;
    while (upTo < sorted.length && (sorted[upTo] as PurchasePoint).at <= t) upTo += 1;
    while (leftBy < sorted.length && (sorted[leftBy] as PurchasePoint).at <= t - windowMs) leftBy += 1;
    if ((prefix[upTo] as number) - (prefix[leftBy] as number) < level.minTotal) return { level, expiresAt: t, total };
  }
  // Unreachable with positive amounts: once every purchase has left, the sum is 0 < minTotal.
  return { level, expiresAt: null, total };
}
