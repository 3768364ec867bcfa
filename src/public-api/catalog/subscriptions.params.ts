import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readNumber, validationError } from '../../http/readers.js';
import type { IdentityInput } from '../../modules/identity/identity.service.js';
import type {
  SubscribeInput,
  SubscriptionKind,
  UnsubscribeInput,
} from '../../modules/product-subscriptions/product-subscriptions.types.js';
import { toMinorUnits } from '../../modules/tracking/domain/money.js';
import { IDENTIFIER_NOT_VALID, readCustomerIdentifiers, readOptionalId } from '../common/identity.params.js';
import { MAX_ITEM_ID_LENGTH, readIdList } from '../common/common.params.js';

/**
 * POST /subscriptions/subscribe_for_product_available, …/subscribe_for_product_price and
 * their unsubscribe_from_… pair (issue 4 part 6; the wire names of the platform's SDKs):
 * `item_id` (the SDKs' name; `item` is accepted too), `price` for a price drop, and the
 * customer as `did`, `email`, `phone` (or external_id, loyalty_id, telegram_id), at
 * least one. The SDKs' `sid`, `seance`, `segment` and `properties` are accepted and not
 * used. Decisions: docs/catalog-read.md.
 */

export function toSubscribeInput(input: PublicInput, shopId: string, kind: SubscriptionKind): SubscribeInput {
  const identity = readCustomer(input);
  const itemId = readSubscribedItem(input);
  const price = kind === 'price_drop' ? readPrice(input) : undefined;
  return { shopId, kind, itemId, identity, ...(price !== undefined && { price }) };
}

/** `item_ids` (an array, or a comma-separated string) or `item_id`; none or empty = every item of the kind. */
export function toUnsubscribeInput(input: PublicInput, shopId: string, kind: SubscriptionKind): UnsubscribeInput {
  const identity = readCustomer(input);
  const ids = readIdList(input, 'item_ids') ?? readIdList(input, 'item_id') ?? [];
  return { shopId, kind, itemIds: ids, identity };
}

function readCustomer(input: PublicInput): IdentityInput {
  const did = readOptionalId(input, 'did', { emptyIsAbsent: true });
  const identity: IdentityInput = { ...(did !== undefined && { did }), ...readCustomerIdentifiers(input) };
  if (Object.keys(identity).length === 0) throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'did' });
  return identity;
}

function readSubscribedItem(input: PublicInput): string {
  const name = input.item_id !== undefined ? 'item_id' : input.item !== undefined ? 'item' : 'item_id';
  const value = input[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (value === undefined) throw validationError('item_id', 'is required');
  if (typeof value !== 'string' || value.trim() === '') throw validationError(name, 'must be a non-empty string');
  if (value.length > MAX_ITEM_ID_LENGTH) throw validationError(name, `must be at most ${MAX_ITEM_ID_LENGTH} characters`);
  return value;
}

/** The price in minor units; absent (or empty) = the product's current price. */
function readPrice(input: PublicInput): number | undefined {
  if (input.price === '') return undefined;
  const price = readNumber(input, 'price', { optional: true });
  if (price === undefined) return undefined;
  const minor = toMinorUnits(price);
  if (minor === undefined) throw validationError('price', 'must be a non-negative number');
  return minor;
}
