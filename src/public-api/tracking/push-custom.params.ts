import { AppError } from '../../errors.js';
import { isPlainObject, type PublicInput } from '../../http/input.js';
import { readInteger, readNumber, validationError } from '../../http/readers.js';
import type { CustomEventInput, CustomVariableValue } from '../../modules/tracking/tracking.types.js';
import { IDENTIFIER_NOT_VALID, readOptionalId } from '../common/identity.params.js';
import { IDENTIFIER_PARAMETERS, readIdentifiers, readOptionalText, readSource } from './event.params.js';

/**
 * POST /push/custom (interface.md endpoint 1, contract-notes "POST /push/custom") mapped
 * to the tracking service's input. Checked in this order after the shop: identifiers
 * (at least one of the group), sid, event, category, label, value, time, payload, extra
 * variables. Whether the code exists for the shop is the service's answer.
 *
 * Decisions of ours, where the contract is silent:
 *  - `sid` is required together with `did` (interface.md: "required together with did");
 *    the SDKs always send both, so a did without a sid is 422 naming sid.
 *  - `time` may be at most MAX_CLOCK_SKEW_SECONDS ahead of the server's clock (a client
 *    clock running fast); further ahead is 422, as the contract wants a time in the past.
 *  - Extra variables and payload entries are bounded (count, name and value sizes) so
 *    that one event cannot carry an unbounded document.
 *  - `source` is read as POST /push reads it (interface.md source rules 1-3): the mobile
 *    SDKs add `{from, code}` to every custom event for 48 hours after trackSource.
 */

export const MAX_CLOCK_SKEW_SECONDS = 300;
export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_NAME_LENGTH = 64;
export const MAX_VARIABLE_TEXT_LENGTH = 1000;
export const MAX_VARIABLE_ARRAY_LENGTH = 100;
export const MAX_CUSTOM_TEXT_LENGTH = 255;
export const MAX_EVENT_CODE_LENGTH = 64;

/** Keys that are parameters of the endpoint (or credentials), never extra variables. */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'shop_id',
  'shop_secret',
  'did',
  'sid',
  'seance',
  ...IDENTIFIER_PARAMETERS,
  'event',
  'category',
  'label',
  'value',
  'time',
  'payload',
  'source',
]);

const VARIABLE_NAME = /^[a-z0-9_]+$/;

export function toCustomEventInput(input: PublicInput, shopId: string, nowMs: number): CustomEventInput {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const identifiers = readIdentifiers(input);
  if (did === undefined && Object.keys(identifiers).length === 0) {
    throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'did' });
  }
  const sid = readOptionalId(input, 'sid', { emptyIsAbsent: true });
  if (did !== undefined && sid === undefined) throw validationError('sid', 'is required together with `did`');

  const code = readEventCode(input);
  const category = readOptionalText(input, 'category', { maxLength: MAX_CUSTOM_TEXT_LENGTH, numbers: true });
  const label = readOptionalText(input, 'label', { maxLength: MAX_CUSTOM_TEXT_LENGTH, numbers: true });
  const value = input.value === '' ? undefined : readInteger(input, 'value', { optional: true });
  const time = readTime(input, nowMs);
  const payload = input.payload === undefined ? undefined : readScalarObject('payload', input.payload);
  const source = readSource(input, MAX_CUSTOM_TEXT_LENGTH);
  return {
    shopId,
    ...(did !== undefined && { did }),
    ...(sid !== undefined && { sid }),
    identifiers,
    code,
    ...(category !== undefined && { category }),
    ...(label !== undefined && { label }),
    ...(value !== undefined && { value }),
    ...(time !== undefined && { time }),
    variables: readVariables(input),
    ...(payload !== undefined && { payload }),
    ...(source !== undefined && { source }),
  };
}

/** The code's shape only; whether the shop created it is the service's answer (same sentence). */
function readEventCode(input: PublicInput): string {
  const value = input.event;
  if (value === undefined || value === '') {
    throw new AppError('VALIDATION_FAILED', 'Parameter `event` is required.', { field: 'event' });
  }
  if (typeof value !== 'string' || value.length > MAX_EVENT_CODE_LENGTH || !VARIABLE_NAME.test(value)) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `event` is not valid', { field: 'event' });
  }
  return value;
}

/** Unix seconds (a decimal string from forms too; fractions allowed), not in the future; returned in ms. */
function readTime(input: PublicInput, nowMs: number): number | undefined {
  if (input.time === '') return undefined;
  const seconds = readNumber(input, 'time', { optional: true });
  if (seconds === undefined) return undefined;
  if (seconds <= 0) throw validationError('time', 'must be a Unix timestamp in seconds');
  const ms = Math.round(seconds * 1000);
  if (ms > nowMs + MAX_CLOCK_SKEW_SECONDS * 1000) throw validationError('time', 'must not be in the future');
  return ms;
}

/** Every other key matching [a-z0-9_]+ is an extra variable; other keys are ignored. */
function readVariables(input: PublicInput): Record<string, CustomVariableValue> {
  const variables: Record<string, CustomVariableValue> = {};
  let count = 0;
  for (const [name, value] of Object.entries(input)) {
    if (RESERVED_KEYS.has(name) || !VARIABLE_NAME.test(name)) continue;
    if (name.length > MAX_VARIABLE_NAME_LENGTH) {
      throw validationError(name, `is an extra variable with a name longer than ${MAX_VARIABLE_NAME_LENGTH} characters`);
    }
    count += 1;
    if (count > MAX_VARIABLES) {
      throw new AppError('VALIDATION_FAILED', `The event has more than ${MAX_VARIABLES} extra variables.`, {
        field: name,
      });
    }
    variables[name] = readVariableValue(name, value);
  }
  return variables;
}

/**
 * The JS SDK's `payload` (and trackPurchase's `custom` of POST /push): an object whose
 * values are scalars or arrays of scalars, bounded like the extra variables.
 */
export function readScalarObject(name: string, value: unknown): Record<string, CustomVariableValue> {
  if (!isPlainObject(value)) throw validationError(name, 'must be an object');
  const entries = Object.entries(value);
  if (entries.length > MAX_VARIABLES) throw validationError(name, `must have at most ${MAX_VARIABLES} keys`);
  const payload: Record<string, CustomVariableValue> = {};
  for (const [key, entry] of entries) {
    const label = `${name}[${key}]`;
    if (key === '' || key.length > MAX_VARIABLE_NAME_LENGTH) {
      throw validationError(label, `must have a name of 1 to ${MAX_VARIABLE_NAME_LENGTH} characters`);
    }
    payload[key] = readVariableValue(label, entry);
  }
  return payload;
}

function readVariableValue(label: string, value: unknown): CustomVariableValue {
  if (Array.isArray(value)) {
    if (value.length > MAX_VARIABLE_ARRAY_LENGTH) {
      throw validationError(label, `must have at most ${MAX_VARIABLE_ARRAY_LENGTH} elements`);
    }
    return value.map((element) => readScalar(label, element, 'must be a scalar or an array of scalars'));
  }
  return readScalar(label, value, 'must be a scalar or an array of scalars');
}

function readScalar(label: string, value: unknown, requirement: string): string | number | boolean {
  if (typeof value === 'string') {
    if (value.length > MAX_VARIABLE_TEXT_LENGTH) {
      throw validationError(label, `must be at most ${MAX_VARIABLE_TEXT_LENGTH} characters`);
    }
    return value;
  }
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return value;
  throw validationError(label, requirement);
}
