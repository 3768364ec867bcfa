import { isValidCalendarDate } from '../../shops/index.js';

/**
 * Readers of single values of an audience record (interface.md, "Audience user record"),
 * pure. Records come as JSON from clients and as text from CSV files, so each reader
 * takes both spellings: a number may come as a string of digits, a flag as `"true"` or
 * `"0"`. Absent values (undefined, null, empty or blank strings) are filtered out before
 * a reader is called. A reader returns the stored form or the reason it refuses.
 */

export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const no = (reason: string): Read<never> => ({ ok: false, reason });

/** Longest stored text of a plain field (names, codes, social ids). */
export const TEXT_MAX_LENGTH = 255;

/** True for the values that mean "not given". */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Trimmed text of 1..max characters; a finite number is taken as its decimal text (a location code 12). */
export function readText(value: unknown, max = TEXT_MAX_LENGTH): Read<string> {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return no('must be a string');
  if (text.length > max) return no(`must be at most ${max} characters`);
  return ok(text);
}

/** An integer from min to max; a string of digits counts. */
export function readInteger(value: unknown, min: number, max: number): Read<number> {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*-?\d{1,16}\s*$/.test(value)) n = Number(value);
  else return no('must be an integer');
  if (!Number.isSafeInteger(n)) return no('must be an integer');
  if (n < min || n > max) return no(`must be from ${min} to ${max}`);
  return ok(n);
}

/** A finite number; a decimal string counts. */
export function readNumber(value: unknown): Read<number> {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) n = Number(value);
  else return no('must be a number');
  return Number.isFinite(n) ? ok(n) : no('must be a finite number');
}

const TRUE_TEXT = new Set(['true', '1']);
const FALSE_TEXT = new Set(['false', '0']);

/**
 * A flag: JSON true/false, 1/0, or the strings "true"/"false"/"1"/"0" in any case.
 * Stricter than the /push cast (contract-notes: any other non-empty string is true):
 * a subscription flag read wrongly would send mail to someone who declined it.
 */
export function readFlag(value: unknown): Read<boolean> {
  if (typeof value === 'boolean') return ok(value);
  if (value === 1 || value === 0) return ok(value === 1);
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE_TEXT.has(text)) return ok(true);
    if (FALSE_TEXT.has(text)) return ok(false);
  }
  return no('must be true or false');
}

/** `m` or `f` (any case). */
export function readGender(value: unknown): Read<'m' | 'f'> {
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'm' || text === 'f') return ok(text);
  }
  return no('must be m or f');
}

/** A calendar date YYYY-MM-DD (2023-02-30 is not one). */
export function readDate(value: unknown): Read<string> {
  if (typeof value !== 'string') return no('must be a date YYYY-MM-DD');
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return no('must be a date YYYY-MM-DD');
  return isValidCalendarDate(text) ? ok(text) : no(`${text} is not a calendar date`);
}

/** Earliest birthday accepted: older dates are typing errors (a year 0985). */
export const EARLIEST_BIRTHDAY = '1900-01-01';

/** A birthday: a calendar date from 1900-01-01 to `today` (YYYY-MM-DD, the caller's). */
export function readBirthday(value: unknown, today: string): Read<string> {
  const date = readDate(value);
  if (!date.ok) return date;
  if (date.value < EARLIEST_BIRTHDAY || date.value > today) return no(`must be from ${EARLIEST_BIRTHDAY} to today`);
  return date;
}

/** An instant in ISO 8601 with a time zone (`2024-05-01T10:00:00+03:00`), stored in UTC. */
export function readDateTime(value: unknown): Read<string> {
  if (typeof value !== 'string') return no('must be a date-time in ISO 8601');
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
    return no('must be a date-time in ISO 8601 with a time zone');
  }
  const date = readDate(text.slice(0, 10));
  const ms = Date.parse(text);
  if (!date.ok || Number.isNaN(ms)) return no(`${text} is not a valid date-time`);
  return ok(new Date(ms).toISOString());
}

/** A JSON object as a record: anything else (arrays included) is not one. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
