import { isUtf8 } from 'node:buffer';
import { AppError } from '../errors.js';
import { textProblem, unstorableText } from './text-rule.js';

/**
 * Bracket parameters exactly as Rack (Ruby) parses them, because the public clients
 * were written against Rack (contract-notes.md, "Wire format every endpoint must
 * accept"): `items[][id]=1&items[][amount]=2&items[][id]=3` is two items, since a key
 * already set in the last element of `items[]` starts a new element; `a[b][c]=1` nests;
 * `cc[]=x` appends; a repeated plain key keeps its last value. Popular query-string
 * libraries differ from Rack on these, hence this module.
 *
 * Pure: strings in, plain objects out. Values are strings, or null for a pair without
 * `=` (Rack gives nil). Bounded, so that a hostile request cannot build a huge or deep
 * structure: too many pairs is 413, too deep or too long an array is 422 naming the
 * parameter.
 */

export type ParamValue = string | null | ParamObject | ParamValue[];
export interface ParamObject {
  [key: string]: ParamValue;
}

export interface ParamLimits {
  /** Most `name=value` pairs in one query string or form. */
  readonly maxParams: number;
  /** Most bracket levels in one name: `a[b][c]` has depth 3. */
  readonly maxDepth: number;
  /** Most elements of one `name[]` array. */
  readonly maxArrayLength: number;
}

export const DEFAULT_PARAM_LIMITS: ParamLimits = Object.freeze({
  maxParams: 50_000,
  maxDepth: 8,
  maxArrayLength: 10_000,
});

/** Parses an `application/x-www-form-urlencoded` body (or a query string, decoded once). */
export function parseBracketQuery(
  query: string,
  limits: ParamLimits = DEFAULT_PARAM_LIMITS,
  decodeValue: (raw: string) => string = decodeComponent,
): ParamObject {
  const pairs: Array<[string, string | null]> = [];
  if (query !== '') {
    for (const chunk of query.split('&')) {
      if (chunk === '') continue;
      if (pairs.length >= limits.maxParams) throw tooManyParams(limits);
      const eq = chunk.indexOf('=');
      pairs.push(eq === -1 ? [decodeName(chunk), null] : decodePair(chunk, eq, decodeValue));
    }
  }
  return parseBracketPairs(pairs, limits);
}

/**
 * Parses the query string of a public request: as a form, and then each value's escapes
 * of the reserved characters are decoded once more (decodeQueryValue).
 */
export function parseQueryString(query: string, limits: ParamLimits = DEFAULT_PARAM_LIMITS): ParamObject {
  return parseBracketQuery(query, limits, decodeQueryValue);
}

/**
 * An escape of one of the reserved characters `; , / ? : @ & = + $ #` (hex digits in
 * either case, as RFC 3986 allows).
 */
const RESERVED_ESCAPE = /%(?:2[346bcf]|3[abdf]|40)/gi;

/**
 * A query-string value, decoded as usual and then once more for exactly the reserved
 * characters (contract-notes, "Wire format"): the official mobile SDK escapes a value
 * with encodeURIComponent, undoes every escape but those of `; , / ? : @ & = + $ #`
 * (decodeURI), and its HTTP client escapes the result again. So `t-shirt%252C+sand`
 * arrives, decodes as usual to `t-shirt%2C sand`, and here becomes `t-shirt, sand`; an
 * email arrives as `ann%2540example.org`. One pass only and nothing else: `%2525`
 * decodes as usual to `%25` and stays so (`%` is not reserved), and a `%2C` that only a
 * second pass would produce (`%25252C`) is left alone. Names are not touched.
 */
export function decodeQueryValue(raw: string): string {
  const once = decodeComponent(raw);
  if (!once.includes('%')) return once;
  return once.replace(RESERVED_ESCAPE, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
}

/** Builds the nested structure from already decoded pairs (e.g. multipart fields), in order. */
export function parseBracketPairs(pairs: Iterable<readonly [string, ParamValue]>, limits: ParamLimits = DEFAULT_PARAM_LIMITS): ParamObject {
  const params: ParamObject = {};
  let count = 0;
  for (const [name, value] of pairs) {
    count += 1;
    if (count > limits.maxParams) throw tooManyParams(limits);
    normalizeParams(params, name, value, 0, '', limits);
  }
  return params;
}

/**
 * Percent-decoding with `+` as space, tolerant of malformed escapes: a `%` not followed
 * by two hex digits stays literal. Escapes that do not spell valid UTF-8 are refused by
 * the text rule (http/text-rule.ts: 422 naming the parameter), as PostgreSQL would refuse
 * them; they throw InvalidUtf8 here, which parseBracketQuery names.
 */
export function decodeComponent(raw: string): string {
  const text = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // Runs of escapes are decoded together so that multi-byte characters survive.
    return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
      if (!isUtf8(bytes)) throw new InvalidUtf8();
      return bytes.toString('utf8');
    });
  }
}

/** Thrown by decodeComponent for escapes that are not UTF-8. */
export class InvalidUtf8 extends Error {
  constructor() {
    super('The percent-escapes do not spell valid UTF-8.');
  }
}

function decodeName(raw: string): string {
  try {
    return decodeComponent(raw);
  } catch (error) {
    if (error instanceof InvalidUtf8) throw unstorableText('A parameter name', '', 'invalid_utf8');
    throw error;
  }
}

function decodePair(chunk: string, eq: number, decodeValue: (raw: string) => string): [string, string] {
  const name = decodeName(chunk.slice(0, eq));
  const nameProblem = textProblem(name);
  if (nameProblem) throw unstorableText('A parameter name', '', nameProblem);
  try {
    return [name, decodeValue(chunk.slice(eq + 1))];
  } catch (error) {
    if (error instanceof InvalidUtf8) throw unstorableText(`Parameter \`${name}\``, name, 'invalid_utf8');
    throw error;
  }
}

function isParamObject(value: ParamValue | undefined): value is ParamObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A port of Rack::QueryParser#normalize_params (Rack 3); `path` only names errors. */
function normalizeParams(
  params: ParamObject,
  name: string,
  value: ParamValue,
  depth: number,
  path: string,
  limits: ParamLimits,
): ParamObject | ParamValue[] | undefined {
  let key: string;
  let after: string;
  if (depth === 0) {
    // Start of parsing: a leading `[` is part of the key.
    const start = name.indexOf('[', 1);
    key = start === -1 ? name : name.slice(0, start);
    after = start === -1 ? '' : name.slice(start);
  } else if (name.startsWith('[]')) {
    key = '[]';
    after = name.slice(2);
  } else if (name.startsWith('[') && name.indexOf(']', 1) !== -1) {
    const close = name.indexOf(']', 1);
    key = name.slice(1, close);
    after = name.slice(close + 1);
  } else {
    // Malformed nesting: the whole rest is the key, as in Rack.
    key = name;
    after = '';
  }

  if (key === '' || key === '__proto__') return undefined;
  const keyPath = depth === 0 ? key : `${path}[${key === '[]' ? '' : key}]`;
  if (depth >= limits.maxDepth) {
    throw new AppError('VALIDATION_FAILED', `Parameter \`${keyPath}\` is nested deeper than ${limits.maxDepth} levels.`, {
      field: keyPath,
    });
  }

  if (after === '') {
    if (key === '[]' && depth !== 0) return [value];
    params[key] = value;
  } else if (after === '[') {
    params[name] = value;
  } else if (after === '[]') {
    pushElement(ensureArray(params, key, keyPath), value, `${keyPath}[]`, limits);
  } else if (after.startsWith('[]')) {
    // `x[][y]`: a hash inside an array.
    let childKey = after.slice(3, -1);
    const simpleChild = after[2] === '[' && after.endsWith(']') && childKey !== '' && !childKey.includes('[') && !childKey.includes(']');
    if (!simpleChild) childKey = after.slice(2);
    const list = ensureArray(params, key, keyPath);
    const last = list[list.length - 1];
    if (isParamObject(last) && !hashHasKey(last, childKey)) {
      normalizeParams(last, childKey, value, depth + 1, `${keyPath}[]`, limits);
    } else {
      const element = normalizeParams({}, childKey, value, depth + 1, `${keyPath}[]`, limits);
      if (element !== undefined) pushElement(list, element, `${keyPath}[]`, limits);
    }
  } else {
    const existing = Object.hasOwn(params, key) ? params[key] : undefined;
    if (existing !== undefined && existing !== null && !isParamObject(existing)) throw conflicting(keyPath);
    const child = isParamObject(existing) ? existing : {};
    params[key] = child;
    normalizeParams(child, after, value, depth + 1, keyPath, limits);
  }
  return params;
}

function ensureArray(params: ParamObject, key: string, keyPath: string): ParamValue[] {
  const existing = Object.hasOwn(params, key) ? params[key] : undefined;
  if (existing === undefined || existing === null) {
    const list: ParamValue[] = [];
    params[key] = list;
    return list;
  }
  if (!Array.isArray(existing)) throw conflicting(keyPath);
  return existing;
}

function pushElement(list: ParamValue[], value: ParamValue, keyPath: string, limits: ParamLimits): void {
  if (list.length >= limits.maxArrayLength) {
    throw new AppError('VALIDATION_FAILED', `Parameter \`${keyPath}\` has more than ${limits.maxArrayLength} elements.`, {
      field: keyPath,
    });
  }
  list.push(value);
}

/** Rack's params_hash_has_key?: does `a][b`-style key path already exist in hash? */
function hashHasKey(hash: ParamObject, key: string): boolean {
  if (key.includes('[]')) return false;
  let current: ParamValue = hash;
  for (const part of key.split(/[[\]]+/)) {
    if (part === '') continue;
    if (!isParamObject(current) || !Object.hasOwn(current, part)) return false;
    current = current[part] ?? null;
  }
  return true;
}

function conflicting(keyPath: string): AppError {
  return new AppError('VALIDATION_FAILED', `Parameter \`${keyPath}\` is given both as a value and as a nested structure.`, {
    field: keyPath,
  });
}

function tooManyParams(limits: ParamLimits): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request has more than ${limits.maxParams} parameters.`);
}
