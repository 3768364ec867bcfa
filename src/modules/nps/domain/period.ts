import { datesBetween, epochDay } from '../../dashboards/index.js';

/**
 * The period of the reviews' list and score: two calendar dates of the shop's time zone,
 * as the dashboards count days. Pure.
 */

export const MAX_PERIOD_DAYS = 366;

export type Period =
  | { readonly ok: true; readonly dates: readonly string[] }
  | { readonly ok: false; readonly field: 'date_from' | 'date_to'; readonly message: string };

/** Every date from `from` to `to`, both included: real dates, in order, at most MAX_PERIOD_DAYS. */
export function reviewPeriod(from: string, to: string): Period {
  const first = epochDay(from);
  if (first === undefined) return { ok: false, field: 'date_from', message: 'Field `date_from` must be a date as YYYY-MM-DD.' };
  const last = epochDay(to);
  if (last === undefined) return { ok: false, field: 'date_to', message: 'Field `date_to` must be a date as YYYY-MM-DD.' };
  if (last < first) return { ok: false, field: 'date_to', message: 'Field `date_to` must not be before `date_from`.' };
  if (last - first + 1 > MAX_PERIOD_DAYS) {
    return { ok: false, field: 'date_to', message: `Field \`date_to\` must be at most ${MAX_PERIOD_DAYS - 1} days after \`date_from\`.` };
  }
  return { ok: true, dates: datesBetween(from, to) };
}
