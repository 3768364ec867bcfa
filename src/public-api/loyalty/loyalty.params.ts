import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import type { PublicCustomer, StatusQuery } from '../../modules/loyalty/domain/member-status.js';
import { REFERRER_CODE_MAX_LENGTH } from '../../modules/loyalty/domain/referral.js';
import { SECRET_MESSAGES } from '../auth.js';
import { readCustomerIdentifiers, readOptionalId } from '../common/identity.params.js';

/**
 * Parameters of the public loyalty calls (docs/loyalty.md), as the platform's mobile SDK
 * sends them: `did`, `seance`, `sid` and `stream` come with every call; only `did` is used.
 */

export const IDENTIFIER_MAX_LENGTH = 255;

/**
 * GET /loyalty/members/status: `identifier` (the phone or loyalty_id, as the SDK sends
 * it), else `phone`, `loyalty_id` or `email` as named parameters, else the device.
 */
export function readStatusQuery(input: PublicInput): StatusQuery {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  let identifier = input.identifier;
  if (typeof identifier === 'number' && Number.isSafeInteger(identifier)) identifier = String(identifier);
  if (identifier === '') identifier = undefined;
  if (identifier !== undefined) {
    if (typeof identifier !== 'string') throw validationError('identifier', 'must be a string');
    if (identifier.length > IDENTIFIER_MAX_LENGTH) {
      throw validationError('identifier', `must be at most ${IDENTIFIER_MAX_LENGTH} characters`);
    }
  }
  const { phone, loyaltyId, email } = readCustomerIdentifiers(input);
  const named = {
    ...(phone !== undefined && { phone }),
    ...(loyaltyId !== undefined && { loyaltyId }),
    ...(email !== undefined && { email }),
  };
  if (did === undefined && identifier === undefined && Object.keys(named).length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `did` or `identifier` is required.', { field: 'did' });
  }
  return { ...(did !== undefined && { did }), ...(identifier !== undefined && { identifier }), identifiers: named };
}

/**
 * POST /loyalty/members/join: the device with the identifiers given (phone, email,
 * loyalty_id, external_id, telegram_id). Identifiers without a device would let anyone
 * enrol a stranger's phone with the public key: 401 unless the caller holds the secret.
 */
export function readJoinCustomer(input: PublicInput, trusted: boolean): PublicCustomer {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const identifiers = readCustomerIdentifiers(input);
  if (did === undefined) {
    if (Object.keys(identifiers).length === 0) {
      throw new AppError('VALIDATION_FAILED', 'Parameter `phone` or `loyalty_id` is required.', { field: 'phone' });
    }
    if (!trusted) throw new AppError('UNAUTHORIZED', SECRET_MESSAGES.status);
  }
  const names: Record<string, unknown> = {};
  for (const field of ['first_name', 'last_name']) {
    const value = input[field];
    if (value !== undefined && value !== null && value !== '') names[field] = value;
  }
  const referrerCode = readReferrerCode(input);
  return { ...(did !== undefined && { did }), identifiers, names, ...(referrerCode !== undefined && { referrerCode }) };
}

/** `referrer_code` of a join: a string of at most REFERRER_CODE_MAX_LENGTH characters; empty counts as absent. */
function readReferrerCode(input: PublicInput): string | undefined {
  const value = input.referrer_code;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw validationError('referrer_code', 'must be a string');
  if (value.length > REFERRER_CODE_MAX_LENGTH)
    throw validationError('referrer_code', `must be at most ${REFERRER_CODE_MAX_LENGTH} characters`);
  return value;
}
