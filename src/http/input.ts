import { AppError } from '../errors.js';
import { DEFAULT_PARAM_LIMITS } from './params.js';
import { textProblem, unstorableText } from './text-rule.js';

/**
 * The merged parameters of one public request (query string, then body on top), with
 * the contract's absent-value rules applied. Route code reads it through the typed
 * readers of http/readers.ts.
 */
export type PublicInput = Record<string, unknown>;

/** Deepest nesting accepted in a JSON body, so that walking it cannot exhaust the stack. */
export const JSON_MAX_DEPTH = 32;
/** Most elements of one array, as for `name[]` in a query string or form (http/params.ts). */
export const JSON_MAX_ARRAY_LENGTH = DEFAULT_PARAM_LIMITS.maxArrayLength;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * An array sent as indexed brackets (`a[0]=x&a[1]=y`, how the mobile SDK's encoder writes
 * an array in a GET) arrives as an object of index keys: read it as the array, in index
 * order. Anything else is undefined.
 */
export function indexedArray(value: unknown): unknown[] | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => /^(0|[1-9][0-9]{0,8})$/.test(key))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
}

/**
 * A parsed JSON body as input: it must be an object; a JSON null counts as absent, so
 * null-valued keys are dropped at every level (contract-notes: mobile SDKs send
 * `"stream": null` and that is never "empty"). Array elements are kept as sent: their
 * position is meaningful. `__proto__` keys are dropped. Every key and string must be
 * storable text (http/text-rule.ts): 422 naming the parameter otherwise.
 */
export function inputFromJsonBody(value: unknown, maxDepth: number = JSON_MAX_DEPTH): PublicInput {
  if (!isPlainObject(value)) {
    throw new AppError('VALIDATION_FAILED', 'The request body must be a JSON object.', { field: 'body' });
  }
  return stripObject(value, false, 0, maxDepth, '');
}

/** One JSON value named `name` (e.g. a form field sent as JSON), with the JSON null rule. */
export function inputFromJsonValue(name: string, value: unknown, maxDepth: number = JSON_MAX_DEPTH): unknown {
  return stripValue(value, false, 1, maxDepth, name);
}

/**
 * Parameters from a query string or a form as input. Besides Rack's null (a pair
 * without `=`), the literal string `null` counts as absent for every key: mobile SDKs
 * send `stream=null` when no stream is set (a documented decision of ours; the contract
 * names `stream`, and no parameter of interface.md can meaningfully be the word null).
 */
export function inputFromForm(params: Record<string, unknown>, maxDepth: number = JSON_MAX_DEPTH): PublicInput {
  return stripObject(params, true, 0, maxDepth, '');
}

/** Path parameters (`/category/{id}`) follow the text rule too; they are read apart from the input. */
export function checkPathParams(params: unknown): void {
  // The router's params object has a null-prototype constructor of its own: not a plain object.
  if (typeof params !== 'object' || params === null) return;
  for (const [name, value] of Object.entries(params)) {
    const problem = typeof value === 'string' ? textProblem(value) : undefined;
    if (problem) throw unstorableText(`Parameter \`${name}\``, name, problem);
  }
}

/**
 * The body wins over the query string, key by key at the top level (as Rack's
 * `params` = GET.merge(POST)). `seance` is the legacy alias of `sid`: it fills `sid`
 * when `sid` is absent, and is then removed so routes see one name.
 */
export function mergeInput(query: PublicInput, body: PublicInput): PublicInput {
  const input: PublicInput = { ...query, ...body };
  if (input.sid === undefined && input.seance !== undefined) input.sid = input.seance;
  delete input.seance;
  return input;
}

function isAbsent(value: unknown, literalNullIsAbsent: boolean): boolean {
  return value === null || value === undefined || (literalNullIsAbsent && value === 'null');
}

function stripObject(
  object: Record<string, unknown>,
  literalNullIsAbsent: boolean,
  depth: number,
  maxDepth: number,
  path: string,
): PublicInput {
  const out: PublicInput = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === '__proto__' || isAbsent(value, literalNullIsAbsent)) continue;
    const keyProblem = textProblem(key);
    if (keyProblem) throw unstorableText(path === '' ? 'A parameter name' : `A name in \`${path}\``, path, keyProblem);
    const keyPath = path === '' ? key : `${path}[${key}]`;
    out[key] = stripValue(value, literalNullIsAbsent, depth + 1, maxDepth, keyPath);
  }
  return out;
}

function stripValue(value: unknown, literalNullIsAbsent: boolean, depth: number, maxDepth: number, path: string): unknown {
  if (typeof value === 'string') {
    // The text rule (http/text-rule.ts), applied during the one walk every input gets.
    const problem = textProblem(value);
    if (problem) throw unstorableText(`Parameter \`${path}\``, path, problem);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth > maxDepth) {
    throw new AppError('VALIDATION_FAILED', `Parameter \`${path}\` is nested deeper than ${maxDepth} levels.`, {
      field: path,
    });
  }
  if (Array.isArray(value)) {
    if (value.length > JSON_MAX_ARRAY_LENGTH) {
      throw new AppError('VALIDATION_FAILED', `Parameter \`${path}\` has more than ${JSON_MAX_ARRAY_LENGTH} elements.`, {
        field: path,
      });
    }
    return value.map((element: unknown, index) => stripValue(element, literalNullIsAbsent, depth + 1, maxDepth, `${path}[${index}]`));
  }
  return stripObject(value as Record<string, unknown>, literalNullIsAbsent, depth, maxDepth, path);
}
