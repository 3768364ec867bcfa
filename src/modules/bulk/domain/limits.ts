/**
 * Frequency caps and quiet hours (docs/bulk.md, "Frequency caps" and "Quiet hours"). Pure: the
 * instant and the time zone are arguments; Intl only reads the zone's rules.
 */
import { dateInTimezone } from '../../shops/index.js';
import { minutesInTimezone, MINUTES_PER_DAY } from '../../checkout/index.js';

export interface ChannelLimits {
  readonly bulkPerDay: number | null;
  readonly bulkPerWeek: number | null;
  /** Minutes since local midnight; a window from > to wraps midnight; from = to is none. */
  readonly quiet: { readonly from: number; readonly to: number } | null;
}

/** The cap periods an instant counts in: its calendar day and ISO week in the shop's zone. */
export function capPeriods(epochMs: number, timezone: string): { day: string; week: string } {
  const day = dateInTimezone(epochMs, timezone);
  return { day: `d:${day}`, week: `w:${isoWeek(day)}` };
}

/** The ISO week (YYYY-Www, weeks from Monday) of a calendar date YYYY-MM-DD. */
export function isoWeek(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  const weekday = (t.getUTCDay() + 6) % 7;
  // The Thursday of the week decides its year.
  t.setUTCDate(t.getUTCDate() - weekday + 3);
  const year = t.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((t.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * Minutes from local time `minutes` to the end of the quiet window, 0 outside it.
 * The window is [from, to); one that wraps midnight (22:00–08:00) is quiet on both sides.
 */
export function minutesToQuietEnd(minutes: number, quiet: { from: number; to: number }): number {
  const { from, to } = quiet;
  if (from === to) return 0;
  const inside = from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
  if (!inside) return 0;
  return (to - minutes + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}

/**
 * When a bulk or chain message may go: `now` outside quiet hours, else the first minute
 * after them (the start of that minute). Local minutes are read in the zone, so a DST
 * change inside the window moves the end by its hour, never drops the message.
 */
export function quietUntil(now: number, timezone: string, quiet: ChannelLimits['quiet']): number {
  if (!quiet) return now;
  const wait = minutesToQuietEnd(minutesInTimezone(now, timezone), quiet);
  if (wait === 0) return now;
  return now - (now % 60_000) + wait * 60_000;
}

/** `HH:MM` ↔ minutes since midnight. */
export function formatClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
