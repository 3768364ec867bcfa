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
 * The offset is taken at the UTC midnight of that date and checked once more at the
 * instant found, which settles a date whose offset changes that night.
 */
export function startOfDayIn(date: string, timezone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, day);
  const first = utcMidnight - offsetAt(utcMidnight, timezone);
  return utcMidnight - offsetAt(first, timezone);
}
