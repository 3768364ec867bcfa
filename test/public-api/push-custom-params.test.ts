import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import type { PublicInput } from '../../src/http/input.js';
import { MAX_CLOCK_SKEW_SECONDS, MAX_VARIABLES, toCustomEventInput } from '../../src/public-api/tracking/push-custom.params.js';

const SHOP = 'b'.repeat(30);
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const BASE = { did: 'Dev0123456', sid: 'Ses0123456', event: 'signed_up' };

function parse(input: PublicInput) {
  return toCustomEventInput(input, SHOP, NOW);
}

function message(input: PublicInput): string {
  try {
    parse(input);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return error.message;
    throw error;
  }
  throw new Error('expected the input to be refused');
}

describe('toCustomEventInput', () => {
  it('maps every documented parameter and the extra variables', () => {
    expect(
      parse({
        ...BASE,
        shop_id: SHOP,
        shop_secret: 'never stored',
        email: 'A@B.org',
        category: 'promo',
        label: 42,
        value: '-7',
        time: String(NOW / 1000 - 60),
        plan: 'gold',
        tags: ['a', 1, true],
        Upper: 'ignored',
        'with-dash': 'ignored',
        payload: { step: 2, names: ['x'] },
      }),
    ).toEqual({
      shopId: SHOP,
      did: 'Dev0123456',
      sid: 'Ses0123456',
      identifiers: { email: 'a@b.org' },
      code: 'signed_up',
      category: 'promo',
      label: '42',
      value: -7,
      time: NOW - 60_000,
      variables: { plan: 'gold', tags: ['a', 1, true] },
      payload: { step: 2, names: ['x'] },
    });
  });

  it('needs one identifier of the group', () => {
    expect(message({ event: 'x' })).toBe('Identifier is not valid');
    expect(message({ event: 'x', email: '', did: '' })).toBe('Identifier is not valid');
    expect(parse({ event: 'x', external_id: 'c-1' }).identifiers).toEqual({ external_id: 'c-1' });
    expect(parse({ event: 'x', phone: 89991234567 }).identifiers).toEqual({ phone: '79991234567' });
  });

  it('names a malformed identifier', () => {
    expect(message({ ...BASE, did: 'INVALID_ID' })).toBe('Device ID is not valid');
    expect(message({ event: 'x', email: 'not-an-email' })).toBe('Parameter `email` is not valid.');
    expect(message({ event: 'x', loyalty_id: ['1'] })).toBe('Parameter `loyalty_id` is not valid.');
  });

  it('requires sid together with did, and a well-formed one', () => {
    expect(message({ did: 'Dev0123456', event: 'x' })).toBe('Parameter `sid` is required together with `did`.');
    expect(message({ did: 'Dev0123456', sid: 'short', event: 'x' })).toBe('Session ID is not valid');
    expect(parse({ email: 'a@b.org', event: 'x' })).not.toHaveProperty('sid');
  });

  it('requires a well-shaped event code', () => {
    expect(message({ ...BASE, event: undefined })).toBe('Parameter `event` is required.');
    expect(message({ ...BASE, event: 'Not A Code' })).toBe('Parameter `event` is not valid');
    expect(message({ ...BASE, event: ['x'] })).toBe('Parameter `event` is not valid');
  });

  it('accepts integer values only', () => {
    expect(parse({ ...BASE, value: 3 }).value).toBe(3);
    expect(parse({ ...BASE, value: '' })).not.toHaveProperty('value');
    expect(message({ ...BASE, value: 1.5 })).toBe('Parameter `value` must be an integer.');
    expect(message({ ...BASE, value: 'abc' })).toBe('Parameter `value` must be an integer.');
    expect(message({ ...BASE, value: '1.5' })).toBe('Parameter `value` must be an integer.');
  });

  it(`accepts a time up to ${MAX_CLOCK_SKEW_SECONDS} s ahead of the clock and refuses one further ahead`, () => {
    const ahead = NOW / 1000 + MAX_CLOCK_SKEW_SECONDS;
    expect(parse({ ...BASE, time: ahead }).time).toBe(NOW + MAX_CLOCK_SKEW_SECONDS * 1000);
    expect(message({ ...BASE, time: ahead + 1 })).toBe('Parameter `time` must not be in the future.');
    expect(message({ ...BASE, time: NOW })).toBe('Parameter `time` must not be in the future.');
    expect(message({ ...BASE, time: 0 })).toBe('Parameter `time` must be a Unix timestamp in seconds.');
    expect(message({ ...BASE, time: 'yesterday' })).toBe('Parameter `time` must be a number.');
  });

  it('refuses objects as extra variables and in payload, naming them', () => {
    expect(message({ ...BASE, plan: { name: 'gold' } })).toBe('Parameter `plan` must be a scalar or an array of scalars.');
    expect(message({ ...BASE, plan: [{ name: 'gold' }] })).toBe('Parameter `plan` must be a scalar or an array of scalars.');
    expect(message({ ...BASE, payload: 'x' })).toBe('Parameter `payload` must be an object.');
    expect(message({ ...BASE, payload: { a: { b: 1 } } })).toBe('Parameter `payload[a]` must be a scalar or an array of scalars.');
  });

  it('bounds the number and the size of extra variables', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_VARIABLES + 1 }, (_, i) => [`v${i}`, i]));
    expect(message({ ...BASE, ...many })).toBe(`The event has more than ${MAX_VARIABLES} extra variables.`);
    const { v0: _dropped, ...enough } = many;
    expect(Object.keys(parse({ ...BASE, ...enough }).variables)).toHaveLength(MAX_VARIABLES);
    expect(message({ ...BASE, note: 'x'.repeat(1001) })).toBe('Parameter `note` must be at most 1000 characters.');
    expect(message({ ...BASE, list: Array.from({ length: 101 }, () => 1) })).toBe('Parameter `list` must have at most 100 elements.');
  });
});
