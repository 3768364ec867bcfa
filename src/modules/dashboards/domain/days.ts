import { dateInTimezone } from '../../shops/index.js';

/**
 * Calendar days of a shop's time zone (pure: Intl only, no clock). A rollup row belongs to
 * the day its moment falls on in the shop's zone: an event at 23:30 in Moscow counts on
 * that Moscow day, although it is 20:30 UTC.
 */

/**
 * Zone offsets in use today are whole quarter hours and change at whole local hours, so
 * the day changes only at a quarter hour of UTC and every moment of a quarter hour falls on one day: the day is looked up
 * once per zone and quarter hour. The cache is small and bounded: a batch of events spans
 * a few quarter hours.
 */
const QUARTER_MS = 15 * 60 * 1000;
const CACHE_MAX = 4_096;
const days = new Map<string, string>();

export function dayOf(epochMs: number, timezone: string): string {
  const quarter = Math.floor(epochMs / QUARTER_MS);
  const key = `${timezone}\u0000${quarter}`;
  let day = days.get(key);
  if (day === undefined) {
    day = dateInTimezone(quarter * QUARTER_MS, timezone);
    if (days.size >= CACHE_MAX) days.clear();
    days.set(key, day);
  }
  return day;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The epoch day of a valid YYYY-MM-DD; undefined when it is not a real calendar date. */
export function epochDay(date: string): number | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

/** The calendar date of an epoch day. */
export function dateOfEpochDay(epochDay: number): string {
  return new Date(epochDay * DAY_MS).toISOString().slice(0, 10);
}

/** Every date from `from` to `to`, both included (valid dates, from ≤ to). */
export function datesBetween(from: string, to: string): string[] {
  const first = epochDay(from) as number;
  const last = epochDay(to) as number;
  const dates: string[] = [];
  for (let d = first; d <= last; d++) dates.push(dateOfEpochDay(d));
  return dates;
}

/** The longest period one dashboard read covers, in days. */
export const MAX_PERIOD_DAYS = 366;

export type PeriodCheck =
  | { readonly ok: true; readonly from: string; readonly to: string; readonly days: number }
  | { readonly ok: false; readonly field: 'from' | 'to'; readonly message: string };

/** A dashboard period: two real dates, `from` ≤ `to`, at most MAX_PERIOD_DAYS days. */
export function checkPeriod(from: string, to: string): PeriodCheck {
  const first = epochDay(from);
  if (first === undefined) return { ok: false, field: 'from', message: 'Field `from` must be a date as YYYY-MM-DD.' };
  const last = epochDay(to);
  if (last === undefined) return { ok: false, field: 'to', message: 'Field `to` must be a date as YYYY-MM-DD.' };
  if (last < first) return { ok: false, field: 'to', message: 'Field `to` must not be before `from`.' };
  const days = last - first + 1;
  if (days > MAX_PERIOD_DAYS) {
    return {
      ok: false,
      field: 'to',
      message: `Field \`to\` must be at most ${MAX_PERIOD_DAYS} days from \`from\` (the period has ${days}).`,
    };
  }
  return { ok: true, from, to, days };
}
