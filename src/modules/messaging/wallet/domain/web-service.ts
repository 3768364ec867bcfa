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

/** Device log messages one request may write to the server log, and characters of each. */
export const DEVICE_LOG_MESSAGES = 10;
export const DEVICE_LOG_CHARACTERS = 500;

/**
 * What of a device's log request is logged: the first DEVICE_LOG_MESSAGES messages, each
 * cut to DEVICE_LOG_CHARACTERS, and how many were left out. The endpoint takes no
 * credential (PassKit's protocol), so what one request may write must stay small.
 */
export function boundDeviceLog(logs: readonly string[]): { logs: string[]; omitted: number } {
  return {
    logs: logs.slice(0, DEVICE_LOG_MESSAGES).map((message) => message.slice(0, DEVICE_LOG_CHARACTERS)),
    omitted: Math.max(0, logs.length - DEVICE_LOG_MESSAGES),
  };
}

/** Last-Modified for a pass changed at `updatedAt` (ms). */
export function httpDate(updatedAt: number): string {
  return new Date(updatedAt).toUTCString();
}
