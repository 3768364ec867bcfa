import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readInteger } from '../../http/readers.js';
import { IDENTIFIER_MAX_LENGTH } from './loyalty.params.js';

/**
 * PATCH /loyalty/bonuses/cancel (interface.md endpoint 13): `identifier` (the member's
 * phone, else its loyalty_id) and the transaction to cancel. The parameter table names
 * it `transaction_id`, the reference request body `id` (a string, `"3387"`): both are
 * read, as a JSON integer or a decimal string; given both, they must agree.
 */

export interface CancelRequest {
  readonly identifier: string;
  readonly transactionId: number;
}

/** The sentence the reference answers for a bad identifier (interface.md, Errors). */
export const IDENTIFIER_NOT_VALID = 'Identifier is not valid';

export function readCancelRequest(input: PublicInput): CancelRequest {
  let identifier = input.identifier;
  // A phone sent as a JSON number (79001234567) is the phone.
  if (typeof identifier === 'number' && Number.isSafeInteger(identifier) && identifier > 0) identifier = String(identifier);
  if (typeof identifier !== 'string' || identifier === '' || identifier.length > IDENTIFIER_MAX_LENGTH) {
    throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'identifier' });
  }
  const byName = readId(input, 'transaction_id');
  const byId = readId(input, 'id');
  if (byName !== undefined && byId !== undefined && byName !== byId) {
    throw new AppError('VALIDATION_FAILED', 'Parameters `transaction_id` and `id` name different transactions.', {
      field: 'transaction_id',
    });
  }
  const transactionId = byName ?? byId;
  if (transactionId === undefined) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `transaction_id` is required.', { field: 'transaction_id' });
  }
  return { identifier, transactionId };
}

/** A transaction id: a positive safe integer, as a JSON number or a decimal string; empty is absent. */
function readId(input: PublicInput, name: 'transaction_id' | 'id'): number | undefined {
  if (input[name] === '') return undefined;
  return readInteger(input, name, { optional: true, min: 1 });
}
