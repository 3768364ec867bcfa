/**
 * The period of a block's stats: two calendar dates of the shop's time zone. Pure.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The longest period one stats read covers, in days. */
export const MAX_STATS_DAYS = 366;

/** The epoch day of a valid YYYY-MM-DD; undefined when it is not a real calendar date. */
function epochDay(date: string): number | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

export type StatsPeriod =
  | { readonly ok: true; readonly dates: readonly string[] }
  | { readonly ok: false; readonly field: 'date_from' | 'date_to'; readonly message: string };

/** Every date from `from` to `to`, both included: real dates, in order, at most MAX_STATS_DAYS. */
export function statsPeriod(from: string, to: string): StatsPeriod {
  const first = epochDay(from);
  if (first === undefined) return { ok: false, field: 'date_from', message: 'Field `date_from` must be a date as YYYY-MM-DD.' };
  const last = epochDay(to);
  if (last === undefined) return { ok: false, field: 'date_to', message: 'Field `date_to` must be a date as YYYY-MM-DD.' };
  if (last < first) return { ok: false, field: 'date_to', message: 'Field `date_to` must not be before `date_from`.' };
  if (last - first + 1 > MAX_STATS_DAYS) {
    return { ok: false, field: 'date_to', message: `Field \`date_to\` must be at most ${MAX_STATS_DAYS - 1} days after \`date_from\`.` };
  }
  const dates: string[] = [];
  for (let d = first; d <= last; d++) dates.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
  return { ok: true, dates };
}
