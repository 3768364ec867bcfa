import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import {
  IDENTIFIER_FIELDS,
  isValidDeviceId,
  isValidSessionId,
  normalizeIdentifiers,
  type IdentifierKind,
  type Identifiers,
} from '../../modules/identity/domain/identifiers.js';
import { interpretSource, type RecommendedBy } from '../../modules/tracking/domain/source.js';
import type { EventIdentifiers } from '../../modules/tracking/tracking.types.js';

/**
 * Parameters shared by GET /init, POST /push and POST /push/custom: the device and
 * session ids (contract-notes, "Identifiers": a did is 8 to 64 characters [A-Za-z0-9-],
 * a sid 10 characters [A-Za-z0-9]; `0000000000` is a well-formed did, `INVALID_ID` is
 * not) and the customer identifiers.
 */

/** The contract's own sentences (contract-notes, "POST /push"). */
export const DEVICE_ID_NOT_VALID = 'Device ID is not valid';
export const SESSION_ID_NOT_VALID = 'Session ID is not valid';
export { DEVICE_NOT_FOUND } from '../../modules/identity/identity.service.js';

/**
 * `did` of POST /push, by its rows of the status table: absent or empty 401, any other
 * malformed value (a wrong length, other characters, not a string) 422.
 */
export function readRequiredDid(input: PublicInput): string {
  const value = input.did;
  if (value === undefined || value === '') {
    throw new AppError('UNAUTHORIZED', 'Parameter `did` is required.', { field: 'did' });
  }
  if (typeof value !== 'string' || !isValidDeviceId(value)) {
    throw new AppError('VALIDATION_FAILED', DEVICE_ID_NOT_VALID, { field: 'did' });
  }
  return value;
}

export interface IdOptions {
  /**
   * GET /init reads an empty did or sid as "none yet" (a web SDK with an empty cookie);
   * POST /push answers 422 for an empty sid, as its table says.
   */
  readonly emptyIsAbsent: boolean;
}

/** An optional `did` or `sid`: undefined when absent, 422 with the contract's sentence when malformed. */
export function readOptionalId(input: PublicInput, name: 'did' | 'sid', options: IdOptions): string | undefined {
  const value = input[name];
  if (value === undefined || (options.emptyIsAbsent && value === '')) return undefined;
  const wellFormed = name === 'did' ? isValidDeviceId : isValidSessionId;
  if (typeof value !== 'string' || !wellFormed(value)) {
    throw new AppError('VALIDATION_FAILED', name === 'did' ? DEVICE_ID_NOT_VALID : SESSION_ID_NOT_VALID, {
      field: name,
    });
  }
  return value;
}

export interface TextOptions {
  readonly maxLength: number;
  /** Accept a JSON number as its decimal text (ids such as order_id are often numbers in JSON). */
  readonly numbers?: boolean;
}

/**
 * An optional free-text parameter where an empty value means "not given" (order_id,
 * delivery_type, payment_type of POST /push; category and label of /push/custom).
 * Arrays, objects and booleans are 422 naming the parameter.
 */
export function readOptionalText(input: PublicInput, name: string, options: TextOptions): string | undefined {
  let value = input[name];
  if (options.numbers && typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw validationError(name, 'must be a string');
  if (value.length > options.maxLength) throw validationError(name, `must be at most ${options.maxLength} characters`);
  return value;
}

const IDENTIFIER_KIND_OF: ReadonlyArray<readonly [IdentifierKind, keyof EventIdentifiers]> = [
  ['email', 'email'],
  ['phone', 'phone'],
  ['externalId', 'external_id'],
  ['loyaltyId', 'loyalty_id'],
  ['telegramId', 'telegram_id'],
];

/**
 * The customer identifiers of an event, normalised (phone `7XXXXXXXXXX`, email trimmed
 * and lower-cased) so that a malformed one is refused here, before anything is written.
 * Empty values count as absent: SDKs send the fields they do not know as empty strings.
 * A phone or an id may arrive as a JSON number.
 */
export function readIdentifiers(input: PublicInput): EventIdentifiers {
  const identifiers = readCustomerIdentifiers(input);
  const out: { -readonly [K in keyof EventIdentifiers]: EventIdentifiers[K] } = {};
  for (const [kind, field] of IDENTIFIER_KIND_OF) {
    const value = identifiers[kind];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** The identifiers of readIdentifiers under identity's names (`externalId` …), for the services that resolve a customer. */
export function readCustomerIdentifiers(input: PublicInput): Identifiers {
  const raw: Partial<Record<IdentifierKind, string>> = {};
  for (const [kind, field] of IDENTIFIER_KIND_OF) {
    let value = input[field];
    if (typeof value === 'number' && Number.isSafeInteger(value)) value = String(value);
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw notValid(field);
    raw[kind] = value;
  }
  const normalized = normalizeIdentifiers(raw);
  if (!normalized.ok) throw notValid(normalized.field);
  return normalized.value;
}

function notValid(field: string): AppError {
  return new AppError('VALIDATION_FAILED', `Parameter \`${field}\` is not valid.`, { field });
}

/** For messages: the contract names of the identifier kinds. */
export const IDENTIFIER_PARAMETERS: readonly string[] = Object.values(IDENTIFIER_FIELDS);

export const SOURCE_NOT_VALID = 'must be a JSON object with `code` and `from`, or a string holding one';

/**
 * `source` of POST /push and POST /push/custom (interface.md, Events, source rules 1-3):
 * absent, undefined; applied, the two attribution fields (the code cut at
 * `maxCodeLength`); ignored, both null; an empty string or text that is not JSON, 422.
 */
export function readSource(
  input: PublicInput,
  maxCodeLength: number,
): { recommendedBy: RecommendedBy | null; recommendedCode: string | null } | undefined {
  if (input.source === undefined) return undefined;
  const outcome = interpretSource(input.source);
  if (outcome.kind === 'invalid') throw validationError('source', SOURCE_NOT_VALID);
  if (outcome.kind === 'ignored') return { recommendedBy: null, recommendedCode: null };
  return { recommendedBy: outcome.recommendedBy, recommendedCode: outcome.recommendedCode.slice(0, maxCodeLength) };
}
