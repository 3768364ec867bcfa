import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readBooleanish, readInteger, readObject, readString, validationError } from '../../http/readers.js';
import { isValidCalendarDate } from '../../modules/shops/domain/shop.js';
import { MESSAGE_TYPES, type HistoryQuery, type MessageType } from '../../modules/messaging/history.service.js';
import { hasLineBreak } from '../../modules/messaging/domain/recipients.js';
import { CHANNELS } from '../../modules/messaging/providers/provider.js';
import type { TransactRequest } from '../../modules/messaging/transact.service.js';
import { IDENTIFIER_NOT_VALID, readCustomerIdentifiers, readOptionalId } from '../common/identity.params.js';

/**
 * Parameters of POST /transact (interface.md endpoint 3) and of GET /notifications and its
 * counters (endpoints 15, 16; contract-notes "Messaging"), from the merged input (JSON,
 * form or multipart with `variables[KEY]`, `cc[]`).
 */

export const MAILING_CODE_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const MAX_COPIES_READ = 50;

export function readTransactRequest(input: PublicInput, idempotencyKey: string | undefined): TransactRequest {
  const mailingCode = readString(input, 'code', { maxLength: MAILING_CODE_MAX_LENGTH });
  // An address with a line break would write headers of its own: refused before normalising trims it away.
  for (const field of ['email', 'cc', 'bcc']) {
    const value = input[field];
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text === 'string' && hasLineBreak(text))) {
      throw new AppError('VALIDATION_FAILED', `Parameter \`${field}\` must not contain line breaks.`, { field });
    }
  }
  const recipient = readCustomerIdentifiers(input);
  if (Object.keys(recipient).length === 0) throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'email' });
  if (idempotencyKey !== undefined && (idempotencyKey === '' || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
    throw new AppError('VALIDATION_FAILED', `Header Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`, {
      field: 'Idempotency-Key',
    });
  }
  return {
    mailingCode,
    recipient,
    variables: readObject(input, 'variables', { optional: true }) ?? {},
    test: readBooleanish(input, 'test', { default: false }),
    cc: readAddresses(input, 'cc'),
    bcc: readAddresses(input, 'bcc'),
    ...(idempotencyKey !== undefined && { idempotencyKey }),
  };
}

/** `cc` / `bcc`: an array (JSON or `cc[]=`), or one address as a string. */
function readAddresses(input: PublicInput, name: 'cc' | 'bcc'): string[] {
  const value = input[name];
  if (value === undefined || value === '') return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((v): v is string => typeof v === 'string')) {
    throw validationError(name, 'must be an array of email addresses');
  }
  if (list.length > MAX_COPIES_READ) throw validationError(name, `must have at most ${MAX_COPIES_READ} elements`);
  const addresses = list.map((a) => a.trim().toLowerCase()).filter((a) => a !== '');
  if (addresses.some(hasLineBreak)) throw validationError(name, 'must not contain line breaks');
  return addresses;
}

/** The customer of a history request: identifiers (and `did` where the endpoint names it). */
export function readHistoryCustomer(input: PublicInput, allowDid: boolean): { did?: string } & Record<string, string> {
  const identifiers = readCustomerIdentifiers(input);
  const did = allowDid ? readOptionalId(input, 'did', { emptyIsAbsent: true }) : undefined;
  if (did === undefined && Object.keys(identifiers).length === 0) {
    throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'email' });
  }
  return { ...identifiers, ...(did !== undefined && { did }) };
}

/** A comma-separated list of allowed words; `chain` and `trigger` are one type (interface.md endpoint 15). */
export function readTypes(input: PublicInput, required: boolean): MessageType[] | undefined {
  const words = readList(input, 'type', required);
  if (!words) return undefined;
  const types = words.map((w) => (w === 'trigger' ? 'chain' : w));
  const bad = types.find((t) => !(MESSAGE_TYPES as readonly string[]).includes(t));
  if (bad !== undefined) throw validationError('type', `must be a comma-separated list of ${[...MESSAGE_TYPES, 'trigger'].join(', ')}`);
  return [...new Set(types)] as MessageType[];
}

export function readChannels(input: PublicInput, required: boolean): string[] | undefined {
  const words = readList(input, 'channel', required);
  if (!words) return undefined;
  const bad = words.find((w) => !(CHANNELS as readonly string[]).includes(w));
  if (bad !== undefined) throw validationError('channel', `must be a comma-separated list of ${CHANNELS.join(', ')}`);
  return [...new Set(words)];
}

/** `date_from` (YYYY-MM-DD) as the start of that day in UTC. */
export function readDateFrom(input: PublicInput, required: boolean): number | undefined {
  const value = required ? readString(input, 'date_from') : readString(input, 'date_from', { optional: true });
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !isValidCalendarDate(value)) throw validationError('date_from', 'must be a date YYYY-MM-DD');
  return Date.parse(`${value}T00:00:00Z`);
}

/**
 * The query of both counters endpoints (interface.md endpoint 16): the customer, the
 * channels and types (required, comma-separated) and `date_from` (required).
 */
export function readCountersQuery(
  input: PublicInput,
): HistoryQuery & { readonly channels: readonly string[]; readonly types: readonly MessageType[] } {
  return {
    customer: readHistoryCustomer(input, true),
    channels: readChannels(input, true) ?? [],
    types: readTypes(input, true) ?? [],
    sentFrom: readDateFrom(input, true) ?? 0,
  };
}

export function readPage(input: PublicInput): { page: number; limit: number } {
  return {
    page: readInteger(input, 'page', { optional: true, min: 1, max: 1_000_000 }) ?? 1,
    limit: readInteger(input, 'limit', { optional: true, min: 1, max: 50 }) ?? 20,
  };
}

function readList(input: PublicInput, name: string, required: boolean): string[] | undefined {
  const value = input[name];
  if (value === undefined || value === '') {
    if (required) throw validationError(name, 'is required');
    return undefined;
  }
  const text = Array.isArray(value) ? value.join(',') : value;
  if (typeof text !== 'string') throw validationError(name, 'must be a comma-separated list');
  const words = text
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
  if (words.length === 0) {
    if (required) throw validationError(name, 'is required');
    return undefined;
  }
  return words;
}
