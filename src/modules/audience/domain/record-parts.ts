import { asObject, isAbsent, readBirthday, readGender, readText, type Read } from './fields.js';

/**
 * The nested parts of an audience record, pure: the kids and auto lists, whose bad
 * entries are dropped one by one, and the push token with its platform.
 */

export interface Kid {
  readonly gender?: 'm' | 'f';
  readonly birthday?: string;
}
export interface Car {
  readonly brand?: string;
  readonly model?: string;
  readonly vds?: string;
}

export const PUSH_PLATFORMS = ['ios', 'android'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];
export const PUSH_TOKEN_MAX_LENGTH = 4096;
/** kids and auto entries kept per record; more is a list nobody keeps by hand. */
export const MAX_LIST_ENTRIES = 20;

export interface FieldProblem {
  /** The contract name, with the entry for kids and auto: `kids[2]`. */
  readonly field: string;
  readonly reason: string;
}

/**
 * kids and auto: an array of objects. A bad entry is dropped on its own (reported as
 * `kids[2]`), so one typo does not lose the others; `[]` stores an empty list.
 */
export function readList<T>(value: unknown, dropped: FieldProblem[], field: string, readEntry: (entry: unknown) => Read<T>): Read<T[]> {
  if (!Array.isArray(value)) return { ok: false, reason: 'must be an array' };
  if (value.length > MAX_LIST_ENTRIES) return { ok: false, reason: `must have at most ${MAX_LIST_ENTRIES} entries` };
  const entries: T[] = [];
  value.forEach((entry: unknown, index) => {
    const read = readEntry(entry);
    if (read.ok) entries.push(read.value);
    else dropped.push({ field: `${field}[${index}]`, reason: read.reason });
  });
  return { ok: true, value: entries };
}

export function readKid(entry: unknown, today: string): Read<Kid> {
  const kid = asObject(entry);
  if (!kid) return { ok: false, reason: 'must be an object with gender and birthday' };
  const out: { gender?: 'm' | 'f'; birthday?: string } = {};
  if (!isAbsent(kid.gender)) {
    const gender = readGender(kid.gender);
    if (!gender.ok) return { ok: false, reason: `gender ${gender.reason}` };
    out.gender = gender.value;
  }
  if (!isAbsent(kid.birthday)) {
    const birthday = readBirthday(kid.birthday, today);
    if (!birthday.ok) return { ok: false, reason: `birthday ${birthday.reason}` };
    out.birthday = birthday.value;
  }
  if (out.gender === undefined && out.birthday === undefined) return { ok: false, reason: 'has neither gender nor birthday' };
  return { ok: true, value: out };
}

export function readCar(entry: unknown): Read<Car> {
  const car = asObject(entry);
  if (!car) return { ok: false, reason: 'must be an object with brand, model and vds' };
  const out: { brand?: string; model?: string; vds?: string } = {};
  for (const key of ['brand', 'model', 'vds'] as const) {
    if (isAbsent(car[key])) continue;
    const text = readText(car[key]);
    if (!text.ok) return { ok: false, reason: `${key} ${text.reason}` };
    out[key] = text.value;
  }
  if (Object.keys(out).length === 0) return { ok: false, reason: 'has none of brand, model, vds' };
  return { ok: true, value: out };
}

/** A token is bound to its platform's certificate (interface.md): without a valid platform it is useless. */
export function readPushToken(
  input: Readonly<Record<string, unknown>>,
  dropped: FieldProblem[],
): { token: string; platform: PushPlatform } | undefined {
  const rawToken = input.mobile_token;
  const rawPlatform = input.mobile_token_platform;
  if (isAbsent(rawToken)) {
    if (!isAbsent(rawPlatform)) dropped.push({ field: 'mobile_token_platform', reason: 'is given without mobile_token' });
    return undefined;
  }
  const token = readText(rawToken, PUSH_TOKEN_MAX_LENGTH);
  if (!token.ok) {
    dropped.push({ field: 'mobile_token', reason: token.reason });
    return undefined;
  }
  const platform = typeof rawPlatform === 'string' ? rawPlatform.trim().toLowerCase() : undefined;
  if (platform !== 'ios' && platform !== 'android') {
    dropped.push({ field: 'mobile_token', reason: 'needs mobile_token_platform ios or android' });
    return undefined;
  }
  return { token: token.value, platform };
}
