/**
 * The upkeep chain's timing, pure (docs/loyalty.md, "Upkeep"): when a lot needs the
 * sweep, and when the next link of a shop's chain runs. No I/O, no clock: `now` is an argument.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** Lots one read of the sweep takes from an index. */
export const SWEEP_BATCH = 500;

/**
 * When a newly credited lot first needs the sweep: a pending lot at its confirms_at, a
 * lot with an expiry at its expires_at, whichever comes first; null when it never does
 * (a confirmed lot that never expires, or a pending lot that nothing confirms by time).
 */
export function lotDueAt(lot: {
  readonly status: 'pending' | 'confirmed';
  readonly confirmsAt?: number | null;
  readonly expiresAt: number | null;
}): number | null {
  const confirms = lot.status === 'pending' ? (lot.confirmsAt ?? null) : null;
  if (confirms === null) return lot.expiresAt;
  if (lot.expiresAt === null) return confirms;
  return Math.min(confirms, lot.expiresAt);
}

/**
 * The next link of a chain that has just swept at `now`: at the shop's earliest due
 * instant, but no sooner than a minute (a lot that could not be swept does not spin the
 * chain) and no later than an hour (whatever changed without telling the chain, such as
 * a hold released back into an expired lot, is swept within the hour). Null ends the
 * chain: nothing is due and no hold could give an expired lot something back.
 */
export function nextLinkAt(now: number, earliestDue: number | null, activeHolds: boolean): number | null {
  if (earliestDue === null && !activeHolds) return null;
  const due = earliestDue ?? now + HOUR_MS;
  return Math.min(Math.max(due, now + MINUTE_MS), now + HOUR_MS);
}

/**
 * When a chain asked for at `dueAt` starts: at once for work already due, and within the
 * hour however far off the work is (the chain keeps to its hourly bound from the start).
 */
export function firstLinkAt(now: number, dueAt: number): number {
  return Math.min(Math.max(dueAt, now), now + HOUR_MS);
}
