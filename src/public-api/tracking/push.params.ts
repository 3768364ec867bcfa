import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { readBooleanish, readNumber, readString, validationError } from '../../http/readers.js';
import { normalizeItems, type TrackedItem } from '../../modules/tracking/domain/items.js';
import { isRecommendedBy, RECOMMENDED_BY_VALUES, type RecommendedBy } from '../../modules/tracking/domain/source.js';
import {
  PUSH_EVENTS,
  type EventAttribution,
  type PurchaseDetails,
  type PushEventInput,
  type PushEventName,
  type ReconeDetails,
} from '../../modules/tracking/tracking.types.js';
import { readIdList } from '../common/common.params.js';
import { readOptionalId } from '../common/identity.params.js';
import { readIdentifiers, readOptionalText, readSource } from './event.params.js';
import { readScalarObject } from './push-custom.params.js';

/**
 * POST /push after the did and shop-state checks: the rest of interface.md's status
 * table, in its order (event; items, category_id or search_query; optional fields),
 * mapped to the tracking service's input. Every failure is AppError VALIDATION_FAILED
 * (422) with one sentence naming the parameter.
 */

/**
 * Most items one event may carry (ours; interface.md sets no number). A real cart or
 * order stays far below it, and it bounds the work and the row one request can cause.
 */
export const MAX_ITEMS_PER_EVENT = 1000;
/** Lengths of our own choosing for the free-text fields (order_id's 255 is the contract's). */
export const MAX_TEXT_LENGTH = 255;
export const MAX_REFERER_LENGTH = 2048;
export const MAX_SEARCH_QUERY_LENGTH = 1000;
export const MAX_DELIVERY_ADDRESS_LENGTH = 1000;
/** The largest `position` of a recone event (ours): a block or a list never holds more. */
export const MAX_RECONE_POSITION = 10_000;

export const EVENT_NOT_VALID = 'Parameter `event` is not valid';

const RECOMMENDED_BY_LIST = RECOMMENDED_BY_VALUES.map((value) => `\`${value}\``).join(', ');

export function toPushEventInput(input: PublicInput, shopId: string, did: string): PushEventInput {
  const event = readEvent(input);
  const subject = readSubject(input, event);
  const { sid, attribution } = readOptionalFields(input);
  return {
    shopId,
    did,
    ...(sid !== undefined && { sid }),
    event,
    ...subject,
    attribution,
    ...(event === 'purchase' && { purchase: readPurchase(input) }),
    ...((event === 'recone_view' || event === 'recone_click') && { recone: readRecone(input) }),
    identifiers: readIdentifiers(input),
  };
}

function readEvent(input: PublicInput): PushEventName {
  const value = input.event;
  if (value === undefined) throw new AppError('VALIDATION_FAILED', 'Parameter `event` is required.', { field: 'event' });
  if (typeof value !== 'string' || !(PUSH_EVENTS as readonly string[]).includes(value)) {
    throw new AppError('VALIDATION_FAILED', EVENT_NOT_VALID, { field: 'event' });
  }
  return value as PushEventName;
}

type Subject = Pick<PushEventInput, 'items' | 'fullCart' | 'fullWish' | 'categoryId' | 'searchQuery' | 'searchResults'>;

/** What the event is about: items, or category_id for `category`, or search_query for `search`. */
function readSubject(input: PublicInput, event: PushEventName): Subject {
  switch (event) {
    case 'category':
      return { items: [], categoryId: readSubjectText(input, 'category_id', MAX_TEXT_LENGTH) };
    case 'search': {
      const searchQuery = readSubjectText(input, 'search_query', MAX_SEARCH_QUERY_LENGTH);
      // The SDKs send the ids the shop's search showed as `results`, comma-joined; an
      // array is read too. Bounded as every id list (common/common.params.ts).
      const searchResults = readIdList(input, 'results');
      return { items: [], searchQuery, ...(searchResults !== undefined && { searchResults }) };
    }
    case 'cart': {
      const fullCart = readBooleanish(input, 'full_cart', { default: false });
      return { items: readItems(input, fullCart), fullCart };
    }
    case 'recone_view':
    case 'recone_click':
      // contract-notes "Beyond interface.md": no items; any sent are not read.
      return { items: [] };
    case 'wish': {
      const fullWish = readBooleanish(input, 'full_wish', { default: false });
      return { items: readItems(input, fullWish), fullWish };
    }
    default:
      return { items: readItems(input, false) };
  }
}

/** category_id and search_query: required, non-empty; a JSON number is read as its text. */
function readSubjectText(input: PublicInput, name: string, maxLength: number): string {
  const value = input[name];
  if (value === undefined) throw validationError(name, 'is required');
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') throw validationError(name, 'must be a non-empty string');
  if (text.length > maxLength) throw validationError(name, `must be at most ${maxLength} characters`);
  return text;
}

/**
 * The items rows of the table: absent, an empty scalar or an empty array is 422 unless
 * the event replaces the whole list (`full_cart` / `full_wish` true), which then
 * empties it; anything but an array (a string, an object) is 422; an array whose every
 * item is dropped for its id is 422. Otherwise the items are normalised (domain/items).
 */
function readItems(input: PublicInput, replacesAll: boolean): TrackedItem[] {
  const value = input.items;
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) {
    if (replacesAll) return [];
    throw validationError('items', value === undefined ? 'is required' : 'must not be empty');
  }
  if (!Array.isArray(value)) throw validationError('items', 'must be an array of items');
  if (value.length > MAX_ITEMS_PER_EVENT) {
    throw validationError('items', `must have at most ${MAX_ITEMS_PER_EVENT} elements`);
  }
  const { items } = normalizeItems(value);
  if (items.length === 0) {
    throw validationError('items', 'has no item with a valid id (1 to 255 characters, no backslash)');
  }
  return items;
}

/**
 * stream, sid, referer, segment, recommended_by, recommended_code and source, in the
 * table's order: empty or not a string 422; sid well-formed (contract-notes,
 * "Identifiers"); segment `A` or `B`; recommended_by an allowed value; then source rules
 * 1–3 (interface.md, Events), which override or null the two fields.
 */
function readOptionalFields(input: PublicInput): { sid: string | undefined; attribution: EventAttribution } {
  const nonEmpty = (name: string, maxLength: number) => readString(input, name, { optional: true, nonEmpty: true, maxLength });
  const stream = nonEmpty('stream', MAX_TEXT_LENGTH);
  const sid = readOptionalId(input, 'sid', { emptyIsAbsent: false });
  const referer = nonEmpty('referer', MAX_REFERER_LENGTH);
  const segment = nonEmpty('segment', MAX_TEXT_LENGTH);
  if (segment !== undefined && segment !== 'A' && segment !== 'B') throw validationError('segment', 'must be `A` or `B`');
  const recommendedByText = nonEmpty('recommended_by', MAX_TEXT_LENGTH);
  if (recommendedByText !== undefined && !isRecommendedBy(recommendedByText)) {
    throw validationError('recommended_by', `must be one of ${RECOMMENDED_BY_LIST}`);
  }
  let recommendedBy: RecommendedBy | undefined = recommendedByText;
  let recommendedCode: string | undefined = nonEmpty('recommended_code', MAX_TEXT_LENGTH);

  const source = readSource(input, MAX_TEXT_LENGTH);
  const sourceNulls = source?.recommendedBy === null;
  if (source?.recommendedBy) {
    recommendedBy = source.recommendedBy;
    recommendedCode = source.recommendedCode ?? undefined;
  }
  const attribution: EventAttribution = {
    ...(stream !== undefined && { stream }),
    ...(referer !== undefined && { referer }),
    ...(segment !== undefined && { segment }),
    ...(sourceNulls
      ? { recommendedBy: null, recommendedCode: null }
      : {
          ...(recommendedBy !== undefined && { recommendedBy }),
          ...(recommendedCode !== undefined && { recommendedCode }),
        }),
  };
  return { sid, attribution };
}

/**
 * recone_view / recone_click as the React Native SDK's track() builds them: `campaign`
 * (the app's `id` of the block: a number or a string), `inventory` (what was shown: an
 * id, a comma-joined list or an array, bounded as every id list), `position` (a whole
 * number from 0). The SDK leaves out what the app did not give, so each is optional, but
 * an event that names neither a campaign nor an inventory says nothing and is 422.
 */
function readRecone(input: PublicInput): ReconeDetails {
  const raw = input.campaign;
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  let campaign: string | undefined;
  if (text !== undefined && text !== '') {
    if (typeof text !== 'string' || text.trim() === '') throw validationError('campaign', 'must be a non-empty string or a number');
    if (text.length > MAX_TEXT_LENGTH) throw validationError('campaign', `must be at most ${MAX_TEXT_LENGTH} characters`);
    campaign = text.trim();
  }
  const inventory = readIdList(input, 'inventory');
  const position = readPosition(input);
  if (campaign === undefined && inventory === undefined) throw validationError('campaign', 'is required');
  return {
    ...(campaign !== undefined && { campaign }),
    ...(inventory !== undefined && { inventory }),
    ...(position !== undefined && { position }),
  };
}

function readPosition(input: PublicInput): number | undefined {
  const value = input.position;
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_RECONE_POSITION) {
    throw validationError('position', `must be a whole number from 0 to ${MAX_RECONE_POSITION}`);
  }
  return n;
}

/**
 * The purchase fields; empty order_id, delivery_type and payment_type count as absent
 * (200). The mobile SDK's trackPurchase adds order_cash, order_bonuses, order_delivery,
 * order_discount (amounts in currency units, not negative), channel, tax_free,
 * gift_package, delivery_address and `custom` (an object of scalars or arrays of
 * scalars, bounded as /push/custom's payload); an empty value counts as absent too.
 */
function readPurchase(input: PublicInput): PurchaseDetails {
  const text = (name: string, maxLength = MAX_TEXT_LENGTH) => readOptionalText(input, name, { maxLength, numbers: true });
  const orderId = text('order_id');
  const deliveryType = text('delivery_type');
  const paymentType = text('payment_type');
  const promocode = text('promocode');
  const orderPrice = readAmount(input, 'order_price');
  const orderCash = readAmount(input, 'order_cash');
  const orderBonuses = readAmount(input, 'order_bonuses');
  const orderDelivery = readAmount(input, 'order_delivery');
  const orderDiscount = readAmount(input, 'order_discount');
  const channel = text('channel');
  const taxFree = readBooleanish(input, 'tax_free', { optional: true });
  const giftPackage = readBooleanish(input, 'gift_package', { optional: true });
  const deliveryAddress = text('delivery_address', MAX_DELIVERY_ADDRESS_LENGTH);
  const custom = input.custom === undefined || input.custom === '' ? undefined : readScalarObject('custom', input.custom);
  return {
    ...(orderId !== undefined && { orderId }),
    ...(orderPrice !== undefined && { orderPrice }),
    ...(deliveryType !== undefined && { deliveryType }),
    ...(paymentType !== undefined && { paymentType }),
    ...(promocode !== undefined && { promocode }),
    ...(orderCash !== undefined && { orderCash }),
    ...(orderBonuses !== undefined && { orderBonuses }),
    ...(orderDelivery !== undefined && { orderDelivery }),
    ...(orderDiscount !== undefined && { orderDiscount }),
    ...(channel !== undefined && { channel }),
    ...(taxFree !== undefined && { taxFree }),
    ...(giftPackage !== undefined && { giftPackage }),
    ...(deliveryAddress !== undefined && { deliveryAddress }),
    ...(custom !== undefined && Object.keys(custom).length > 0 && { custom }),
  };
}

/** An amount of money in currency units: a number or a decimal string, not negative; empty counts as absent. */
function readAmount(input: PublicInput, name: string): number | undefined {
  const amount = input[name] === '' ? undefined : readNumber(input, name, { optional: true });
  if (amount !== undefined && amount < 0) throw validationError(name, 'must not be negative');
  return amount;
}
