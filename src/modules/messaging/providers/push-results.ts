import type { SafeFetchFailure } from '../../../net/safe-fetch.errors.js';
import type { SendResult } from './provider.js';

/**
 * Outcomes shared by the push vendors (fcm, apns, vapid): how a Retry-After header and a
 * failure of the outbound guard become a SendResult. Vendor status codes are mapped in
 * each vendor's own file, since every vendor means something else by the same status.
 */

/** Longest Retry-After honoured: a vendor asking for more is treated as asking for this. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Retry-After in milliseconds (RFC 9110: delay-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // The IMF-fixdate of RFC 9110 only: Date.parse alone would take "-5" for a year.
    if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - nowMs);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

export function temporary(message: string, retryAfter?: number): SendResult {
  return retryAfter === undefined
    ? { ok: false, kind: 'temporary', message }
    : { ok: false, kind: 'temporary', message, retryAfterMs: retryAfter };
}

export function permanent(message: string): SendResult {
  return { ok: false, kind: 'permanent', message };
}

export function deadAddress(message: string): SendResult {
  return { ok: false, kind: 'dead_address', message };
}

/**
 * A call that got no HTTP answer. A URL the guard refuses, or one that is not a URL, is
 * the shop's configuration and will not heal by retrying; a network failure or a timeout may.
 */
export function guardFailure(vendor: string, failure: SafeFetchFailure): SendResult {
  const message = `${vendor}: ${failure.reason}`;
  return failure.code === 'refused_address' || failure.code === 'invalid_url' ? permanent(message) : temporary(message);
}

/** A vendor's own words, cut to one admin-readable line without control characters. */
export function vendorWords(text: string, max = 300): string {
  const oneLine = Array.from(text, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
