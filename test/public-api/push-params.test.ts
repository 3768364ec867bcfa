import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { PublicInput } from '../../src/http/input.js';
import { MAX_ITEMS_PER_EVENT, toPushEventInput } from '../../src/public-api/tracking/push.params.js';

const SHOP = 'a'.repeat(30);
const DID = 'Abc0123456';

function parse(input: PublicInput) {
  return toPushEventInput(input, SHOP, DID);
}

/** The AppError a parse throws, as code and message. */
function failure(input: PublicInput): { code: string; message: string } {
  try {
    parse(input);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the input to be refused');
}

describe('toPushEventInput', () => {
  it('maps a cart event with items to the service input', () => {
    expect(parse({ event: 'cart', items: [{ id: '1', amount: '2', price: '10.5' }], stream: 'web', sid: 'Sess012345' })).toEqual({
      shopId: SHOP,
      did: DID,
      sid: 'Sess012345',
      event: 'cart',
      items: [{ id: '1', amount: 2, price: 10.5 }],
      fullCart: false,
      attribution: { stream: 'web' },
      identifiers: {},
    });
  });

  it('checks event before items, and items before the optional fields', () => {
    expect(failure({ items: 'x', stream: '' }).message).toBe('Parameter `event` is required.');
    expect(failure({ event: 'cart', items: 'x', stream: '' }).message).toBe('Parameter `items` must be an array of items.');
    expect(failure({ event: 'cart', items: [{ id: '1' }], stream: '', segment: 'C' }).message).toBe(
      'Parameter `stream` must be a non-empty string.',
    );
  });

  it('checks the optional fields in the order of the table', () => {
    const all = { event: 'view', items: [{ id: '1' }], sid: 'bad', referer: '', segment: 'C', recommended_by: 'x', source: '' };
    const order: string[] = [];
    let input: PublicInput = all;
    for (;;) {
      let message: string;
      try {
        parse(input);
        break;
      } catch (error) {
        message = (error as AppError).message;
      }
      order.push(message);
      const field = /`(\w+)`|^(Session) ID/.exec(message);
      const name = field?.[1] ?? 'sid';
      const { [name]: _dropped, ...rest } = input;
      input = rest;
    }
    expect(order).toEqual([
      'Session ID is not valid',
      'Parameter `referer` must be a non-empty string.',
      'Parameter `segment` must be `A` or `B`.',
      expect.stringMatching(/^Parameter `recommended_by` must be one of `dynamic`, /),
      expect.stringMatching(/^Parameter `source` must be a JSON object/),
    ]);
  });

  it('refuses more than the item limit before normalising anything', () => {
    const items = Array.from({ length: MAX_ITEMS_PER_EVENT + 1 }, (_, i) => ({ id: String(i) }));
    expect(failure({ event: 'cart', items })).toEqual({
      code: 'VALIDATION_FAILED',
      message: `Parameter \`items\` must have at most ${MAX_ITEMS_PER_EVENT} elements.`,
    });
    expect(parse({ event: 'cart', items: items.slice(1) }).items).toHaveLength(MAX_ITEMS_PER_EVENT);
  });

  it('reads full_cart only for cart and full_wish only for wish', () => {
    expect(parse({ event: 'cart', full_cart: 'yes' })).toMatchObject({ items: [], fullCart: true });
    expect(parse({ event: 'wish', full_wish: '1', items: '' })).toMatchObject({ items: [], fullWish: true });
    expect(failure({ event: 'wish', full_cart: 'true' }).message).toBe('Parameter `items` is required.');
    expect(failure({ event: 'cart', full_cart: 'false', items: [] }).message).toBe('Parameter `items` must not be empty.');
    expect(failure({ event: 'remove_from_cart', full_cart: 'true', items: [] }).message).toBe('Parameter `items` must not be empty.');
  });

  it('takes category_id and search_query instead of items, numbers as their text', () => {
    expect(parse({ event: 'category', category_id: 15 })).toMatchObject({ items: [], categoryId: '15' });
    expect(parse({ event: 'search', search_query: 'red shoes' })).toMatchObject({ items: [], searchQuery: 'red shoes' });
    expect(failure({ event: 'category' }).message).toBe('Parameter `category_id` is required.');
    expect(failure({ event: 'search', search_query: ' ' }).message).toBe('Parameter `search_query` must be a non-empty string.');
    expect(failure({ event: 'search', search_query: ['a'] }).message).toBe('Parameter `search_query` must be a non-empty string.');
  });

  it('reads the purchase fields for purchase only, empty ones as absent', () => {
    const purchase = parse({
      event: 'purchase',
      items: [{ id: '1' }],
      order_id: 12345,
      order_price: '99.90',
      delivery_type: '',
      payment_type: 'card',
      promocode: 'SALE',
    });
    expect(purchase.purchase).toEqual({ orderId: '12345', orderPrice: 99.9, paymentType: 'card', promocode: 'SALE' });
    expect(parse({ event: 'cart', items: [{ id: '1' }], order_id: 'x'.repeat(300) }).purchase).toBeUndefined();
    expect(failure({ event: 'purchase', items: [{ id: '1' }], order_price: 'abc' }).message).toBe(
      'Parameter `order_price` must be a number.',
    );
    expect(failure({ event: 'purchase', items: [{ id: '1' }], order_id: ['1'] }).message).toBe('Parameter `order_id` must be a string.');
  });

  it('normalises email and phone into identifiers and refuses a malformed one', () => {
    expect(parse({ event: 'view', items: [{ id: '1' }], email: ' Ann@Example.org ', phone: '8 (999) 123-45-67' }).identifiers).toEqual({
      email: 'ann@example.org',
      phone: '79991234567',
    });
    expect(failure({ event: 'view', items: [{ id: '1' }], phone: 'call me' })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Parameter `phone` is not valid.',
    });
  });
});
