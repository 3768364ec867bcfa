/**
 * The loyalty and promotions endpoints speak money in currency units (roubles, not kopecks)
 * with two decimals at most (docs/loyalty.md "Units and rounding", docs/promotions.md
 * "Units"): shown in the shop's currency, typed as the person writes it.
 */
export { formatUnits } from '../i18n/format';

/**
 * An amount as typed ("100", "1 000,50", "99.9") → a number with two decimals at most, or
 * null when it is not one. Both the comma and the dot are decimal marks; spaces group.
 */
export function parseUnits(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d{1,2})?$/.test(compact)) return null;
  const value = Number(compact);
  return Number.isFinite(value) ? value : null;
}

/** The offset of a time zone from UTC at an instant, in milliseconds. */
function zoneOffset(instant: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A `datetime-local` value (YYYY-MM-DDTHH:MM), read in the shop's time zone → an ISO instant; null if malformed. */
export function localToIso(local: string, timezone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let instant = wall - zoneOffset(wall, timezone);
  // Around a change of offset the first guess lands on the other side: correct once.
  instant = wall - zoneOffset(instant, timezone);
  return new Date(instant).toISOString();
}

/** An ISO instant → the `datetime-local` value of the wall clock in the shop's time zone. */
export function isoToLocal(iso: string, timezone: string): string {
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return '';
  return new Date(instant + zoneOffset(instant, timezone)).toISOString().slice(0, 16);
}
