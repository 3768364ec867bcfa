import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readString, validationError } from '../../http/readers.js';
import { isValidCalendarDate } from '../../modules/shops/domain/shop.js';
import { IDENTIFIER_NOT_VALID } from './bonuses.params.js';
import { IDENTIFIER_MAX_LENGTH } from './loyalty.params.js';

/**
 * Parameters of the paid-subscription reads (interface.md endpoints 2 and 4), checked
 * after the credentials: `identifier`, `subscription`, then the dates of the order list.
 */

export interface SubscriptionQuery {
  readonly identifier: string;
  readonly subscription: string;
}

export interface OrdersQuery extends SubscriptionQuery {
  readonly dateFrom?: string | undefined;
  readonly dateTo?: string | undefined;
}

/**
 * The member's phone (any usual spelling) or loyalty_id. An email or any value that is
 * not a string is another kind of identifier: `Identifier is not valid` (interface.md,
 * Errors), rather than a lookup that could only miss.
 */
function readMemberIdentifier(input: PublicInput): string {
  let identifier = input.identifier;
  if (typeof identifier === 'number' && Number.isSafeInteger(identifier) && identifier > 0) identifier = String(identifier);
  if (typeof identifier !== 'string' || identifier.trim() === '' || identifier.length > IDENTIFIER_MAX_LENGTH || identifier.includes('@')) {
    throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'identifier' });
  }
  return identifier.trim();
}

export function readSubscriptionQuery(input: PublicInput): SubscriptionQuery {
  const identifier = readMemberIdentifier(input);
  const subscription = readString(input, 'subscription', { nonEmpty: true, maxLength: 64 });
  return { identifier, subscription };
}

function readDate(input: PublicInput, name: 'date_from' | 'date_to'): string | undefined {
  const value = input[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !isValidCalendarDate(value)) throw validationError(name, 'must be a calendar date YYYY-MM-DD');
  return value;
}

export function readOrdersQuery(input: PublicInput): OrdersQuery {
  const query = readSubscriptionQuery(input);
  const dateFrom = readDate(input, 'date_from');
  const dateTo = readDate(input, 'date_to');
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `date_from` must not be after `date_to`.', { field: 'date_from' });
  }
  return { ...query, dateFrom, dateTo };
}
