import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import type { CustomerRef } from '../../modules/audience/profiles.service.js';
import {
  isValidDeviceId,
  isValidSessionId,
  normalizeIdentifiers,
  type IdentifierField,
  type IdentifierKind,
  type Identifiers,
} from '../../modules/identity/domain/identifiers.js';
import { SECRET_MESSAGES } from '../auth.js';

/**
 * Who is calling, as every public group reads it: the device and session ids
 * (contract-notes, "Identifiers": a did is 8 to 64 characters [A-Za-z0-9-], a sid 10
 * characters [A-Za-z0-9]; `0000000000` is a well-formed did, `INVALID_ID` is not) and
 * the customer identifiers.
 */

/** The contract's own sentences (contract-notes, "POST /push" and "POST /push/custom"). */
export const DEVICE_ID_NOT_VALID = 'Device ID is not valid';
export const SESSION_ID_NOT_VALID = 'Session ID is not valid';
export const IDENTIFIER_NOT_VALID = 'Identifier is not valid';
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

/** Each identifier kind and the parameter that carries it, in the order they are read. */
export const IDENTIFIER_KIND_OF: ReadonlyArray<readonly [IdentifierKind, IdentifierField]> = [
  ['email', 'email'],
  ['phone', 'phone'],
  ['externalId', 'external_id'],
  ['loyaltyId', 'loyalty_id'],
  ['telegramId', 'telegram_id'],
];

/**
 * The customer identifiers, normalised (phone `7XXXXXXXXXX`, email trimmed and
 * lower-cased) so that a malformed one is refused here, before anything is written.
 * Empty values count as absent: SDKs send the fields they do not know as empty strings.
 * A phone or an id may arrive as a JSON number.
 */
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

/**
 * Whose profile: the device (`did`, with any identifiers linked to it), or, for a caller
 * holding the shop's secret, the identifiers alone. Identifiers without a device and
 * without the secret would let anyone read or change a stranger's profile by email: 401.
 */
export function readCustomer(input: PublicInput, trusted: boolean): CustomerRef {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const identifiers = readCustomerIdentifiers(input);
  if (did === undefined) {
    if (Object.keys(identifiers).length === 0) throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'did' });
    if (!trusted) throw new AppError('UNAUTHORIZED', SECRET_MESSAGES.status);
  }
  return { ...(did !== undefined && { did }), identifiers };
}
