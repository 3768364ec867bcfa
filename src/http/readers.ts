import { AppError } from '../errors.js';
import { isPlainObject } from './input.js';

/**
 * Typed readers for single parameters of a public request. Values from the query
 * string and forms are strings, values from JSON keep their type, so each reader
 * accepts both spellings where the contract does (contract-notes, "Wire format").
 * A bad value throws AppError VALIDATION_FAILED (422) with one sentence naming the
 * parameter; routes that must check parameters in a given order call them in that order.
 */

type Input = Readonly<Record<string, unknown>>;

interface ReaderOptions {
  /** Absent (undefined) is allowed; the reader returns undefined (or `default`). */
  readonly optional?: boolean;
  /** The name shown in messages when it differs from the key, e.g. `items[][id]`. */
  readonly label?: string;
}

export interface StringOptions extends ReaderOptions {
  readonly nonEmpty?: boolean;
  readonly maxLength?: number;
  readonly pattern?: RegExp;
  /** Completes "Parameter `x` must be …" when the pattern does not match. */
  readonly patternHint?: string;
}

export interface IntegerOptions extends ReaderOptions {
  readonly min?: number;
  readonly max?: number;
}

type Optional = { readonly optional: true };
type Mandatory = { readonly optional?: false };

export function validationError(label: string, requirement: string): AppError {
  return new AppError('VALIDATION_FAILED', `Parameter \`${label}\` ${requirement}.`, { field: label });
}

function required(label: string): AppError {
  return validationError(label, 'is required');
}

export function readString(input: Input, name: string, options: StringOptions & Optional): string | undefined;
export function readString(input: Input, name: string, options?: StringOptions & Mandatory): string;
export function readString(input: Input, name: string, options: StringOptions = {}): string | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined) {
    if (options.optional) return undefined;
    throw required(label);
  }
  if (typeof value !== 'string') {
    throw validationError(label, options.nonEmpty ? 'must be a non-empty string' : 'must be a string');
  }
  if (options.nonEmpty && value === '') throw validationError(label, 'must be a non-empty string');
  if (options.maxLength !== undefined && value.length > options.maxLength) {
    throw validationError(label, `must be at most ${options.maxLength} characters`);
  }
  if (options.pattern && !options.pattern.test(value)) {
    throw validationError(label, options.patternHint ? `must be ${options.patternHint}` : 'has an invalid format');
  }
  return value;
}

/**
 * contract-notes: `"false"`, `"0"` and false are false; true and any other non-empty
 * string are true (interface.md: full_cart "not Boolean … cast to true"). Numbers
 * follow the same rule (0 is false). An empty string counts as absent.
 */
export function readBooleanish(input: Input, name: string, options: ReaderOptions & { default: boolean }): boolean;
export function readBooleanish(input: Input, name: string, options: ReaderOptions & Optional): boolean | undefined;
export function readBooleanish(input: Input, name: string, options?: ReaderOptions & Mandatory): boolean;
export function readBooleanish(input: Input, name: string, options: ReaderOptions & { default?: boolean } = {}): boolean | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined || value === '') {
    if (options.default !== undefined) return options.default;
    if (options.optional) return undefined;
    throw required(label);
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value !== 0;
  if (typeof value === 'string') return value !== 'false' && value !== '0';
  throw validationError(label, 'must be a boolean');
}

/** An integer, as a JSON number or a decimal string such as `"2"` or `"-5"`. */
export function readInteger(input: Input, name: string, options: IntegerOptions & Optional): number | undefined;
export function readInteger(input: Input, name: string, options?: IntegerOptions & Mandatory): number;
export function readInteger(input: Input, name: string, options: IntegerOptions = {}): number | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined) {
    if (options.optional) return undefined;
    throw required(label);
  }
  let parsed: number | undefined;
  if (typeof value === 'number') parsed = value;
  else if (typeof value === 'string' && /^[+-]?\d{1,16}$/.test(value)) parsed = Number(value);
  if (parsed === undefined || !Number.isSafeInteger(parsed)) throw validationError(label, rangeText(options));
  if ((options.min !== undefined && parsed < options.min) || (options.max !== undefined && parsed > options.max)) {
    throw validationError(label, rangeText(options));
  }
  return parsed;
}

/** A finite number, as a JSON number or a decimal string such as `"12.50"`. */
export function readNumber(input: Input, name: string, options: ReaderOptions & Optional): number | undefined;
export function readNumber(input: Input, name: string, options?: ReaderOptions & Mandatory): number;
export function readNumber(input: Input, name: string, options: ReaderOptions = {}): number | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined) {
    if (options.optional) return undefined;
    throw required(label);
  }
  let parsed: number | undefined;
  if (typeof value === 'number') parsed = value;
  else if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) parsed = Number(value);
  if (parsed === undefined || !Number.isFinite(parsed)) throw validationError(label, 'must be a number');
  return parsed;
}

/** An array of strings, as a JSON array or `name[]=a&name[]=b`. */
export function readStringArray(
  input: Input,
  name: string,
  options: ReaderOptions & Optional & { maxItems?: number },
): string[] | undefined;
export function readStringArray(input: Input, name: string, options?: ReaderOptions & Mandatory & { maxItems?: number }): string[];
export function readStringArray(input: Input, name: string, options: ReaderOptions & { maxItems?: number } = {}): string[] | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined) {
    if (options.optional) return undefined;
    throw required(label);
  }
  if (!Array.isArray(value) || !value.every((element): element is string => typeof element === 'string')) {
    throw validationError(label, 'must be an array of strings');
  }
  if (options.maxItems !== undefined && value.length > options.maxItems) {
    throw validationError(label, `must have at most ${options.maxItems} elements`);
  }
  return value;
}

/** An object, as a JSON object or `name[key]=value`. */
export function readObject(input: Input, name: string, options: ReaderOptions & Optional): Record<string, unknown> | undefined;
export function readObject(input: Input, name: string, options?: ReaderOptions & Mandatory): Record<string, unknown>;
export function readObject(input: Input, name: string, options: ReaderOptions = {}): Record<string, unknown> | undefined {
  const label = options.label ?? name;
  const value = input[name];
  if (value === undefined) {
    if (options.optional) return undefined;
    throw required(label);
  }
  if (!isPlainObject(value)) throw validationError(label, 'must be an object');
  return value;
}

function rangeText(options: IntegerOptions): string {
  const { min, max } = options;
  if (min !== undefined && max !== undefined) return `must be an integer from ${min} to ${max}`;
  if (min !== undefined) return `must be an integer of at least ${min}`;
  if (max !== undefined) return `must be an integer of at most ${max}`;
  return 'must be an integer';
}
