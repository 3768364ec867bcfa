import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { readBooleanish, readInteger, readNumber, readObject, readString, readStringArray } from '../../src/http/readers.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    return (error as AppError).message;
  }
  throw new Error('expected the reader to throw');
}

describe('readString', () => {
  it('returns a present string and undefined for an absent optional one', () => {
    expect(readString({ stream: 'web' }, 'stream')).toBe('web');
    expect(readString({}, 'stream', { optional: true })).toBeUndefined();
    expect(readString({ stream: '' }, 'stream')).toBe('');
  });

  it('names the parameter in each failure', () => {
    expect(messageOf(() => readString({}, 'stream'))).toBe('Parameter `stream` is required.');
    expect(messageOf(() => readString({ stream: ['a'] }, 'stream'))).toBe('Parameter `stream` must be a string.');
    expect(messageOf(() => readString({ stream: '' }, 'stream', { nonEmpty: true }))).toBe(
      'Parameter `stream` must be a non-empty string.',
    );
    expect(messageOf(() => readString({ stream: 5 }, 'stream', { nonEmpty: true }))).toBe('Parameter `stream` must be a non-empty string.');
    expect(messageOf(() => readString({ order_id: 'x'.repeat(256) }, 'order_id', { maxLength: 255 }))).toBe(
      'Parameter `order_id` must be at most 255 characters.',
    );
    expect(messageOf(() => readString({ did: 'INVALID_ID' }, 'did', { pattern: /^[a-z0-9]{10}$/i }))).toBe(
      'Parameter `did` has an invalid format.',
    );
  });

  it('uses the label in messages when given', () => {
    expect(messageOf(() => readString({ id: 1 }, 'id', { label: 'items[][id]' }))).toBe('Parameter `items[][id]` must be a string.');
  });

  it('accepts exactly maxLength characters', () => {
    expect(readString({ order_id: 'x'.repeat(255) }, 'order_id', { maxLength: 255 })).toHaveLength(255);
  });
});

describe('readBooleanish', () => {
  it.each([
    ['false', false],
    ['0', false],
    [false, false],
    [0, false],
    ['true', true],
    ['1', true],
    ['yes', true],
    ['False', true],
    [true, true],
    [1, true],
  ])('reads %j as %s', (value, expected) => {
    expect(readBooleanish({ full_cart: value }, 'full_cart')).toBe(expected);
  });

  it('treats absent and empty as the default', () => {
    expect(readBooleanish({}, 'full_cart', { default: false })).toBe(false);
    expect(readBooleanish({ full_cart: '' }, 'full_cart', { default: false })).toBe(false);
    expect(readBooleanish({}, 'full_cart', { optional: true })).toBeUndefined();
    expect(messageOf(() => readBooleanish({}, 'full_cart'))).toBe('Parameter `full_cart` is required.');
  });

  it('rejects arrays and objects', () => {
    expect(messageOf(() => readBooleanish({ test: ['1'] }, 'test'))).toBe('Parameter `test` must be a boolean.');
    expect(messageOf(() => readBooleanish({ test: { a: '1' } }, 'test'))).toBe('Parameter `test` must be a boolean.');
  });
});

describe('readInteger', () => {
  it('accepts integers as numbers and as decimal strings', () => {
    expect(readInteger({ depth: '2' }, 'depth')).toBe(2);
    expect(readInteger({ depth: 2 }, 'depth')).toBe(2);
    expect(readInteger({ depth: '-5' }, 'depth')).toBe(-5);
    expect(readInteger({}, 'depth', { optional: true })).toBeUndefined();
  });

  it.each([['2.5'], [2.5], [''], [' 2'], ['2e3'], ['0x10'], [true], [['1']], ['99999999999999999']])(
    'rejects %j naming the parameter',
    (value) => {
      expect(messageOf(() => readInteger({ depth: value }, 'depth'))).toBe('Parameter `depth` must be an integer.');
    },
  );

  it('enforces the range with a message that states it', () => {
    expect(readInteger({ limit: '50' }, 'limit', { min: 1, max: 50 })).toBe(50);
    expect(messageOf(() => readInteger({ limit: '51' }, 'limit', { min: 1, max: 50 }))).toBe(
      'Parameter `limit` must be an integer from 1 to 50.',
    );
    expect(messageOf(() => readInteger({ page: '0' }, 'page', { min: 1 }))).toBe('Parameter `page` must be an integer of at least 1.');
  });
});

describe('readNumber', () => {
  it('accepts numbers and decimal strings and rejects the rest', () => {
    expect(readNumber({ price: '12.50' }, 'price')).toBe(12.5);
    expect(readNumber({ price: -3 }, 'price')).toBe(-3);
    expect(messageOf(() => readNumber({ price: 'abc' }, 'price'))).toBe('Parameter `price` must be a number.');
    expect(messageOf(() => readNumber({ price: '' }, 'price'))).toBe('Parameter `price` must be a number.');
  });
});

describe('readStringArray and readObject', () => {
  it('read arrays of strings and objects, naming the parameter otherwise', () => {
    expect(readStringArray({ cc: ['a@x.org'] }, 'cc')).toEqual(['a@x.org']);
    expect(messageOf(() => readStringArray({ cc: 'a@x.org' }, 'cc'))).toBe('Parameter `cc` must be an array of strings.');
    expect(messageOf(() => readStringArray({ cc: ['a', 1] }, 'cc'))).toBe('Parameter `cc` must be an array of strings.');
    expect(messageOf(() => readStringArray({ cc: ['a', 'b'] }, 'cc', { maxItems: 1 }))).toBe(
      'Parameter `cc` must have at most 1 elements.',
    );
    expect(readObject({ variables: { name: 'Ann' } }, 'variables')).toEqual({ name: 'Ann' });
    expect(messageOf(() => readObject({ variables: ['Ann'] }, 'variables'))).toBe('Parameter `variables` must be an object.');
  });
});
