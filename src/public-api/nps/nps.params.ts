import type { PublicInput } from '../../http/input.js';
import { readInteger, validationError } from '../../http/readers.js';
import { MAX_COMMENT_LENGTH, MAX_ORDER_ID_LENGTH, MAX_RATE, MIN_RATE, NPS_CODE, type ReviewInput } from '../../modules/nps/index.js';

/**
 * POST /nps/create's review (contract-notes "Beyond interface.md"; docs/nps.md) as the
 * three SDKs send it: `rate` a number (Android), a numeric string (iOS) or query-string
 * text (React Native); the React Native SDK sends an absent category, order id or comment
 * as an empty string, which reads as absent.
 */
export function readReview(input: PublicInput): ReviewInput {
  const rate = readInteger(input, 'rate', { min: MIN_RATE, max: MAX_RATE });
  const channel = readCode(input, 'channel');
  const category = readCode(input, 'category');
  const orderId = readOptionalText(input, 'order_id', MAX_ORDER_ID_LENGTH);
  const comment = readOptionalText(input, 'comment', MAX_COMMENT_LENGTH);
  return {
    rate,
    channel,
    category,
    ...(orderId !== undefined && { orderId }),
    ...(comment !== undefined && { comment }),
  };
}

function readCode(input: PublicInput, name: 'channel' | 'category'): string {
  const value = input[name];
  if (value === undefined || value === '') throw validationError(name, 'is required');
  if (typeof value !== 'string' || !NPS_CODE.test(value))
    throw validationError(name, 'must be a code of 1 to 64 of A-Z, a-z, 0-9, `_`, `.` and `-`');
  return value;
}

function readOptionalText(input: PublicInput, name: string, maxLength: number): string | undefined {
  let value = input[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) value = String(value);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw validationError(name, 'must be a string');
  if (value.length > maxLength) throw validationError(name, `must be at most ${maxLength} characters`);
  return value;
}
