import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { isPlainObject } from '../../http/input.js';
import { readBooleanish, readInteger, validationError } from '../../http/readers.js';
import { parsePositiveAmount } from '../../modules/loyalty/domain/amount.js';
import type { CheckoutRequest } from '../../modules/checkout/checkout.types.js';
import type { CartLine } from '../../modules/checkout/domain/types.js';

/**
 * Parameters of the checkout calls (interface.md endpoint 6, contract-notes "Loyalty
 * checkout"; docs/checkout.md "Endpoints"), checked in the order of the body, each bad
 * value a 422 naming it. Every list and string is bounded, so that no request reaches
 * the calculation or the database larger than these.
 */

export const MAX_CART_LINES = 1_000;
export const MAX_CODES = 20;
/** Promo codes and certificate codes are 1 to 64 characters (docs/promotions.md "Codes"). */
export const CODE_MAX_LENGTH = 64;
export const TEXT_MAX_LENGTH = 255;
export const MAX_QUANTITY = 1_000_000;
/** Whole bonuses; the service keeps hundredths. */
export const MAX_BONUSES_AMOUNT = 1_000_000_000;
const HH_MM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** An id or identifier: a string, or a JSON integer read as its decimal text; empty is absent. */
function readText(input: PublicInput, name: string, label: string = name): string | undefined {
  let value = input[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) value = String(value);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw validationError(label, 'must be a string');
  if (value.length > TEXT_MAX_LENGTH) throw validationError(label, `must be at most ${TEXT_MAX_LENGTH} characters`);
  return value;
}

export function readOrderId(input: PublicInput): string {
  const orderId = readText(input, 'order_id');
  if (orderId === undefined) throw validationError('order_id', 'is required');
  return orderId;
}

export function readIdentifier(input: PublicInput): string {
  const identifier = readText(input, 'identifier');
  if (identifier === undefined) throw validationError('identifier', 'is required');
  return identifier;
}

function readCodes(input: PublicInput, name: string): string[] {
  const value = input[name];
  if (value === undefined || value === '') return [];
  if (!Array.isArray(value)) throw validationError(name, 'must be an array of strings');
  if (value.length > MAX_CODES) throw validationError(name, `must have at most ${MAX_CODES} elements`);
  return value.map((code) => {
    if (typeof code !== 'string' || code === '') throw validationError(`${name}[]`, 'must be a non-empty string');
    if (code.length > CODE_MAX_LENGTH) throw validationError(`${name}[]`, `must be at most ${CODE_MAX_LENGTH} characters`);
    return code;
  });
}

const SUBSCRIPTION_CODE = /^[A-Za-z0-9_-]{1,64}$/;

function readCart(input: PublicInput): CartLine[] {
  const value = input.cart_items;
  if (value === undefined) throw validationError('cart_items', 'is required');
  if (!Array.isArray(value)) throw validationError('cart_items', 'must be an array of line objects');
  if (value.length === 0) throw validationError('cart_items', 'must not be empty');
  if (value.length > MAX_CART_LINES) throw validationError('cart_items', `must have at most ${MAX_CART_LINES} lines`);
  return value.map((line, index) => {
    const label = (field: string) => `cart_items[${index}][${field}]`;
    if (!isPlainObject(line)) throw validationError(`cart_items[${index}]`, 'must be an object');
    const productId = readText(line, 'product_id', label('product_id'));
    if (productId === undefined) throw validationError(label('product_id'), 'is required');
    const price = line.price;
    const parsed =
      typeof price === 'number'
        ? parsePositiveAmount(price)
        : typeof price === 'string' && /^\d+(\.\d+)?$/.test(price)
          ? parsePositiveAmount(Number(price))
          : undefined;
    if (price === undefined) throw validationError(label('price'), 'is required');
    if (!parsed) throw validationError(label('price'), 'must be a number');
    if (!parsed.ok) throw validationError(label('price'), parsed.requirement);
    const quantity = readInteger(line, 'quantity', { label: label('quantity'), min: 1, max: MAX_QUANTITY });
    const flag = (name: string) => readBooleanish(line, name, { label: label(name), default: true });
    return {
      productId,
      price: parsed.minor,
      quantity,
      discountable: flag('discountable'),
      bonusable: flag('bonusable'),
      rewardable: flag('rewardable'),
    };
  });
}

/** The body of estimate (order_id optional) and apply (order_id required). */
export function readCheckoutRequest(input: PublicInput, options: { orderRequired: boolean }): CheckoutRequest {
  const orderId = options.orderRequired ? readOrderId(input) : (readText(input, 'order_id') ?? null);
  const identifier = readText(input, 'identifier') ?? null;
  const cart = readCart(input);
  const promoCodes = readCodes(input, 'promo_codes');
  const certificates = readCodes(input, 'certificates');
  const chargeBonuses = readBooleanish(input, 'charge_bonuses', { default: false });
  const bonuses =
    input.bonuses_amount === '' ? undefined : readInteger(input, 'bonuses_amount', { optional: true, min: 0, max: MAX_BONUSES_AMOUNT });
  // docs/checkout.md: a malformed time is refused here rather than left to fall back to the shop's clock.
  const currentTime = readText(input, 'current_time') ?? null;
  if (currentTime !== null && !HH_MM.test(currentTime)) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `current_time` must be a time HH:MM on a 24-hour clock.', { field: 'current_time' });
  }
  // contract-notes "Loyalty checkout": a subscription order names its subscription by code.
  const subscription = readText(input, 'subscription') ?? null;
  if (subscription !== null && !SUBSCRIPTION_CODE.test(subscription)) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `subscription` must be a subscription code: 1 to 64 letters, digits, `-` or `_`.', {
      field: 'subscription',
    });
  }
  return {
    orderId,
    identifier,
    paymentType: readText(input, 'payment_type') ?? null,
    stream: readText(input, 'stream') ?? null,
    locationId: readText(input, 'location_id') ?? null,
    promoCodes,
    certificates,
    chargeBonuses,
    bonusesAmount: bonuses === undefined ? null : bonuses * 100,
    currentTime,
    subscription,
    cart,
  };
}
