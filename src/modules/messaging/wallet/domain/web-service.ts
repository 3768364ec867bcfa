/**
 * The PassKit web service's small rules (Apple, "Adding a Web Service to Update Passes"),
 * as pure functions: the update tag and If-Modified-Since (the `ApplePass` authorization
 * is read by http/authorization.ts).
 */

/**
 * `passesUpdatedSince` is the `lastUpdated` tag we gave the device before: our
 * updated_at in milliseconds. Absent or unreadable: every pass counts as updated (the
 * device asks again with the new tag).
 */
export function parseUpdateTag(tag: string | undefined): number | undefined {
  if (tag === undefined || !/^\d{1,16}$/.test(tag)) return undefined;
  return Number(tag);
}

/**
 * True when a pass changed at `updatedAt` (ms) is not newer than If-Modified-Since. HTTP
 * dates count whole seconds, so the pass's time is compared at that precision; a date
 * that does not parse is ignored (RFC 9110 §13.1.3).
 */
export function notModifiedSince(header: string | undefined, updatedAt: number): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return false;
  return Math.floor(updatedAt / 1000) * 1000 <= since;
}

/** Last-Modified for a pass changed at `updatedAt` (ms). */
export function httpDate(updatedAt: number): string {
  return new Date(updatedAt).toUTCString();
}
