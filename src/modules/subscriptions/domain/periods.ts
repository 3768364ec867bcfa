/**
 * Billing periods of a subscription member (docs/subscriptions.md, "Periods"). Pure:
 * calendar dates (YYYY-MM-DD of the shop's time zone) in, dates out; the caller turns
 * its clock into today's date in the shop's zone.
 *
 * Periods run from the member's `started_on` in steps of the plan's `period_days`:
 * period k covers the days [started_on + k·period_days, started_on + (k+1)·period_days).
 * Counting whole local days, rather than instants, keeps every boundary at the shop's
 * local midnight whatever the daylight-saving changes in between.
 */

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a valid calendar date. */
export function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The calendar date `days` after `date`. */
export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

export interface Period {
  /** The first day of the period: the key of its usage rows. */
  readonly start: string;
  /** The first day of the next period: `limits_reset_date`. */
  readonly next: string;
}

/**
 * The period that contains `today`. A day before `started_on` (a member subscribed
 * with a start in the future cannot exist today, but a clock set back can) counts in the
 * first period, so the answer is always a period that has begun or begins next.
 */
export function periodOf(startedOn: string, periodDays: number, today: string): Period {
  if (!Number.isSafeInteger(periodDays) || periodDays < 1) throw new RangeError('period_days must be a positive integer');
  const elapsed = Math.max(0, dayNumber(today) - dayNumber(startedOn));
  const index = Math.floor(elapsed / periodDays);
  const start = addDays(startedOn, index * periodDays);
  return { start, next: addDays(start, periodDays) };
}

/** interface.md, Subscription member: active while paid_till (the last paid day) is not in the past. */
export function isPaid(paidTill: string, today: string): boolean {
  return paidTill >= today;
}
