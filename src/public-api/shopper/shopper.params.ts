import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readString, validationError } from '../../http/readers.js';
import { COLLECTION_ID_MAX_LENGTH, isValidCollectionId } from '../../modules/collections/domain/collection.js';
import type { CustomerLookup } from '../../modules/shopper-view/shopper-view.service.js';
import { startOfDayIn } from '../../modules/shopper-view/domain/dates.js';
import { isValidCalendarDate } from '../../modules/shops/domain/shop.js';
import { readCustomerIdentifiers, readOptionalId } from '../common/identity.params.js';

/**
 * Parameters of GET /products/cart, /orders/by_user, /orders/last_for_user and
 * /collection/{id}, after the credentials. Statuses follow contract-notes "Secrets and
 * errors" (the /push table): a malformed did or identifier 422 with the contract's
 * sentence; which customer they name is the service's answer (404 when none).
 */

const BY_USER_PARAMETERS = ['did', 'email', 'phone', 'loyalty_id', 'external_id', 'telegram_id'];
const LAST_FOR_USER_PARAMETERS = ['did', 'external_id', 'telegram_id'];
const MAX_LOCATION_LENGTH = 255;

/**
 * GET /orders/by_user (a secret endpoint): the device and every identifier kind. The SDK
 * sends its did with every call; an identifier, when given, names the customer.
 */
export function readOrdersLookup(input: PublicInput): CustomerLookup {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const lookup: CustomerLookup = { ...(did !== undefined && { did }), ...readCustomerIdentifiers(input) };
  return requireOne(lookup, BY_USER_PARAMETERS);
}

/**
 * GET /orders/last_for_user (no secret): the device, external_id or telegram_id, as the
 * platform documents it. Email, phone and loyalty_id are not read here: without the
 * secret they would let anyone who knows a customer's email see what they bought.
 */
export function readLastOrderLookup(input: PublicInput): CustomerLookup {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const { externalId, telegramId } = readCustomerIdentifiers(input);
  const lookup: CustomerLookup = {
    ...(did !== undefined && { did }),
    ...(externalId !== undefined && { externalId }),
    ...(telegramId !== undefined && { telegramId }),
  };
  return requireOne(lookup, LAST_FOR_USER_PARAMETERS);
}

function requireOne(lookup: CustomerLookup, names: readonly string[]): CustomerLookup {
  if (Object.keys(lookup).length > 0) return lookup;
  throw new AppError('VALIDATION_FAILED', `At least one of ${names.map((n) => `\`${n}\``).join(', ')} is required.`, {
    field: names.join(','),
  });
}

/** `date_from` (YYYY-MM-DD, a real calendar date) as the first instant of that day in the shop's timezone. */
export function readDateFrom(input: PublicInput, timezone: string): number | undefined {
  if (input.date_from === '') return undefined;
  const text = readString(input, 'date_from', {
    optional: true,
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    patternHint: 'a date as YYYY-MM-DD',
  });
  if (text === undefined) return undefined;
  if (Number(text.slice(0, 4)) < 1970 || !isValidCalendarDate(text)) {
    throw validationError('date_from', 'must be a date as YYYY-MM-DD');
  }
  return startOfDayIn(text, timezone);
}

/** The `{id}` of GET /collection/{id}: the shape the admin API accepts. */
export function readCollectionId(id: string | undefined): string {
  if (id === undefined || !isValidCollectionId(id)) {
    throw validationError('id', `must be 1 to ${COLLECTION_ID_MAX_LENGTH} letters, digits, \`_\` or \`-\``);
  }
  return id;
}

/** `location`: one location code; empty counts as absent. */
export function readLocation(input: PublicInput): string | undefined {
  if (input.location === '') return undefined;
  return readString(input, 'location', { optional: true, maxLength: MAX_LOCATION_LENGTH });
}
