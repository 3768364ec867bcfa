import { describe, expect, it } from 'vitest';
import { checkProfileUpdate } from '../../../src/modules/audience/domain/profile-update.js';
import type { RecordContext } from '../../../src/modules/audience/domain/record.js';

const CONTEXT: RecordContext = { properties: new Map([['shoe_size', 'integer']]), today: '2026-01-15' };

describe('profile update check (POST /profile/set)', () => {
  it('ignores the transport keys and reads the rest by the audience record', () => {
    const check = checkProfileUpdate(
      {
        shop_id: 'x',
        did: 'abcdefghij',
        sid: 'abcdefghij',
        seance: 'abcdefghij',
        stream: 'android',
        email: ' Ann@Example.org ',
        external_id: 100500,
        first_name: ' Ann ',
        shoe_size: '38',
        email_bulk: true,
      },
      CONTEXT,
    );
    expect(check).toEqual({
      ok: true,
      update: {
        identifiers: { email: 'ann@example.org', externalId: '100500' },
        fields: { first_name: 'Ann', email_bulk: true },
        properties: { shoe_size: 38 },
      },
      ignored: [],
    });
  });

  it('decodes kids and auto sent as JSON text, and takes them as arrays too', () => {
    const text = checkProfileUpdate({ kids: '[{"gender":"f","birthday":"2015-07-28"}]', auto: '[{"brand":"Mini"}]' }, CONTEXT);
    const arrays = checkProfileUpdate({ kids: [{ gender: 'f', birthday: '2015-07-28' }], auto: [{ brand: 'Mini' }] }, CONTEXT);
    const expected = {
      ok: true,
      update: { identifiers: {}, fields: { kids: [{ gender: 'f', birthday: '2015-07-28' }], auto: [{ brand: 'Mini' }] }, properties: {} },
      ignored: [],
    };
    expect(text).toEqual(expected);
    expect(arrays).toEqual(expected);
  });

  it('reads the text null (the SDK stringifies a JSON null) in kids as absent', () => {
    expect(checkProfileUpdate({ kids: 'null', auto: '' }, CONTEXT)).toEqual({
      ok: true,
      update: { identifiers: {}, fields: {}, properties: {} },
      ignored: [],
    });
  });

  it('keeps the known fields and names the keys that are neither a field nor a custom property of the shop', () => {
    expect(checkProfileUpdate({ nickname: 'A', first_name: 'Ann', shoe_size: 38, hair: '{"colour":"red"}' }, CONTEXT)).toEqual({
      ok: true,
      update: { identifiers: {}, fields: { first_name: 'Ann' }, properties: { shoe_size: 38 } },
      ignored: ['nickname', 'hair'],
    });
  });

  it('still refuses the whole update for a bad value beside an unknown key', () => {
    expect(checkProfileUpdate({ nickname: 'A', gender: 'x' }, CONTEXT)).toEqual({
      ok: false,
      field: 'gender',
      message: 'Parameter `gender` must be m or f.',
    });
  });

  it.each([
    [
      'an invalid identifier',
      { phone: 'abc' },
      'phone',
      'Parameter `phone` is not valid: only digits, spaces, +, -, dots and parentheses are allowed.',
    ],
    [
      'an invalid telegram_id (dropped by an import)',
      { telegram_id: ' ' + 'x'.repeat(300) },
      'telegram_id',
      'Parameter `telegram_id` is not valid: an identifier has at most 255 characters.',
    ],
    ['kids that are not JSON', { kids: '[oops' }, 'kids', 'Parameter `kids` must be a JSON array.'],
    [
      'one bad kid among good ones',
      { kids: '[{"gender":"m"},{"birthday":"2030-01-01"}]' },
      'kids[1]',
      'Parameter `kids[1]` birthday must be from 1900-01-01 to today.',
    ],
    ['a custom property of the wrong type', { shoe_size: 'big' }, 'shoe_size', 'Parameter `shoe_size` must be an integer.'],
    [
      'a push token without its platform',
      { mobile_token: 'tok' },
      'mobile_token',
      'Parameter `mobile_token` needs mobile_token_platform ios or android.',
    ],
  ])('refuses the whole update for %s, naming the field', (_name, input, field, message) => {
    expect(checkProfileUpdate(input, CONTEXT)).toEqual({ ok: false, field, message });
  });
});
