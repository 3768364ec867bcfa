/**
 * Calendar dates of a shop's timezone as instants. Pure (Intl only, no clock).
 */

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The timezone's offset from UTC at an instant, in ms (Moscow: +3 h). */
function offsetAt(epochMs: number, timezone: string): number {
  let format = offsetFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(timezone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(epochMs).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The first instant of a calendar date (YYYY-MM-DD, already checked) in the timezone.
 * Midnight is tried with the offset at the UTC midnight of that date and with the offset
 * at that first guess; the earlier one whose wall clock is on the date wins. That
 * settles a date whose offset changes that night, even where midnight itself is skipped
 * (the day then starts at 01:00).
 */
export function startOfDayIn(date: string, timezone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, day);
  const first = utcMidnight - offsetAt(utcMidnight, timezone);
  const second = utcMidnight - offsetAt(first, timezone);
  for (const candidate of [Math.min(first, second), Math.max(first, second)]) {
    if (candidate + offsetAt(candidate, timezone) >= utcMidnight) return candidate;
  }
  return Math.max(first, second);
}
