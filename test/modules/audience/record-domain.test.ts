import { describe, expect, it } from 'vitest';
import { readPropertyValue } from '../../../src/modules/audience/domain/custom-properties.js';
import { readBirthday, readFlag, readInteger, readText } from '../../../src/modules/audience/domain/fields.js';
import { addChunk, addStop, emptyLog, MAX_LOG_ENTRIES } from '../../../src/modules/audience/domain/import-log.js';
import { checkRecord, type RecordCheck, type RecordContext } from '../../../src/modules/audience/domain/record.js';

const CONTEXT: RecordContext = { properties: new Map([['shoe_size', 'integer']]), today: '2026-01-15' };

function accepted(check: RecordCheck) {
  if (check.kind !== 'accepted') throw new Error(`skipped: ${check.reason}`);
  return check;
}

describe('audience record check', () => {
  it('normalises identifiers by the identity rules; a phone or an id may be a JSON number', () => {
    const check = accepted(checkRecord({ email: ' A@B.Org ', phone: 89123456789, external_id: 42, loyalty_id: ' L1 ' }, CONTEXT));
    expect(check.record.identifiers).toEqual({ email: 'a@b.org', phone: '79123456789', externalId: '42', loyaltyId: 'L1' });
  });

  it.each([
    ['not an object', ['x'], 'not_an_object'],
    ['null', null, 'not_an_object'],
    ['no key identifier', { first_name: 'A', telegram_id: 't' }, 'no_identifier'],
    ['only empty identifiers', { email: ' ', phone: '' }, 'no_identifier'],
    ['a phone with letters', { phone: '8912abc4567' }, 'invalid_phone'],
    ['a phone too short', { phone: '12345' }, 'invalid_phone'],
    ['an email without a domain', { email: 'ann@' }, 'invalid_email'],
    ['an external_id that is an object', { external_id: { id: 1 } }, 'invalid_external_id'],
    ['a negative number as loyalty_id', { loyalty_id: -5 }, 'invalid_loyalty_id'],
    ['a NUL in first_name', { email: 'a@b.org', first_name: 'A\u0000' }, 'invalid_text'],
    ['a NUL in an identifier', { email: 'a\u0000@b.org' }, 'invalid_text'],
    ['a lone surrogate in a custom property', { email: 'a@b.org', shoe_size: '\uDC00' }, 'invalid_text'],
    ['a NUL in a field name', { email: 'a@b.org', 'x\u0000': 1 }, 'invalid_text'],
  ])('skips a record with %s', (_name, record, reason) => {
    expect(checkRecord(record, CONTEXT)).toMatchObject({ kind: 'skipped', reason });
  });

  it('skips a record with more than 500 keys', () => {
    const record: Record<string, unknown> = { email: 'a@b.org' };
    for (let i = 0; i < 500; i += 1) record[`k${i}`] = i;
    expect(checkRecord(record, CONTEXT)).toMatchObject({ kind: 'skipped', reason: 'too_many_fields' });
  });

  it('drops a bad telegram_id but keeps the record', () => {
    const check = accepted(checkRecord({ email: 'a@b.org', telegram_id: 't'.repeat(256) }, CONTEXT));
    expect(check.record.identifiers).toEqual({ email: 'a@b.org' });
    expect(check.dropped).toEqual([{ field: 'telegram_id', reason: expect.stringContaining('255') }]);
  });

  it('keeps the good kids and cars and reports each bad entry by position', () => {
    const check = accepted(
      checkRecord(
        {
          email: 'a@b.org',
          kids: [{ gender: 'M', birthday: '2010-01-01' }, 7, {}, { birthday: '2030-01-01' }],
          auto: [{ brand: 'Lada', vds: 123 }, { colour: 'red' }, [1]],
        },
        CONTEXT,
      ),
    );
    expect(check.record.fields).toEqual({ kids: [{ gender: 'm', birthday: '2010-01-01' }], auto: [{ brand: 'Lada', vds: '123' }] });
    expect(check.dropped.map((d) => d.field)).toEqual(['kids[1]', 'kids[2]', 'kids[3]', 'auto[1]', 'auto[2]']);
  });

  it('drops lists that are not arrays or are too long', () => {
    const check = accepted(checkRecord({ email: 'a@b.org', kids: 'two', auto: new Array(21).fill({ brand: 'X' }) }, CONTEXT));
    expect(check.record.fields).toEqual({});
    expect(check.dropped).toEqual([
      { field: 'kids', reason: 'must be an array' },
      { field: 'auto', reason: 'must have at most 20 entries' },
    ]);
  });

  it('keeps a push token only with a valid platform', () => {
    expect(
      accepted(checkRecord({ email: 'a@b.org', mobile_token: ' t1 ', mobile_token_platform: 'Android' }, CONTEXT)).record.pushToken,
    ).toEqual({
      token: 't1',
      platform: 'android',
    });
    const without = accepted(checkRecord({ email: 'a@b.org', mobile_token_platform: 'ios' }, CONTEXT));
    expect(without.record.pushToken).toBeUndefined();
    expect(without.dropped).toEqual([{ field: 'mobile_token_platform', reason: 'is given without mobile_token' }]);
  });

  it('sorts keys into fields, custom properties and unknown codes', () => {
    const check = accepted(checkRecord({ email: 'a@b.org', first_name: ' Ann ', shoe_size: '38', colour: 'red', __proto__x: 1 }, CONTEXT));
    expect(check.record.fields).toEqual({ first_name: 'Ann' });
    expect(check.record.properties).toEqual({ shoe_size: 38 });
    expect(check.unknown).toEqual(['colour', '__proto__x']);
  });

  it('treats null, empty and blank values as not given', () => {
    const check = accepted(checkRecord({ email: 'a@b.org', first_name: null, last_name: '  ', age: '' }, CONTEXT));
    expect(check.record.fields).toEqual({});
    expect(check.dropped).toEqual([]);
  });
});

describe('audience field readers', () => {
  it('reads flags strictly', () => {
    expect([true, false, 1, 0, 'TRUE', ' false ', '1', '0'].map((v) => readFlag(v))).toEqual(
      [true, false, true, false, true, false, true, false].map((value) => ({ ok: true, value })),
    );
    for (const bad of ['yes', 2, 'maybe', [], {}]) expect(readFlag(bad).ok).toBe(false);
  });

  it('reads integers within bounds, from numbers or digit strings', () => {
    expect(readInteger('42', 0, 150)).toEqual({ ok: true, value: 42 });
    expect(readInteger(151, 0, 150)).toEqual({ ok: false, reason: 'must be from 0 to 150' });
    expect(readInteger(4.2, 0, 150).ok).toBe(false);
    expect(readInteger('4.2', 0, 150).ok).toBe(false);
    expect(readInteger('99999999999999999', 0, Number.MAX_SAFE_INTEGER).ok).toBe(false);
  });

  it('reads calendar birthdays from 1900 to today', () => {
    expect(readBirthday('2024-02-29', '2026-01-15')).toEqual({ ok: true, value: '2024-02-29' });
    expect(readBirthday('2023-02-30', '2026-01-15')).toEqual({ ok: false, reason: '2023-02-30 is not a calendar date' });
    expect(readBirthday('2023-2-3', '2026-01-15').ok).toBe(false);
    expect(readBirthday('2026-01-16', '2026-01-15').ok).toBe(false);
  });

  it('bounds text and takes numbers as their decimal text', () => {
    expect(readText(' x ')).toEqual({ ok: true, value: 'x' });
    expect(readText(12.5)).toEqual({ ok: true, value: '12.5' });
    expect(readText('x'.repeat(256)).ok).toBe(false);
    expect(readText(true).ok).toBe(false);
  });

  it('reads custom property values by type', () => {
    expect(readPropertyValue('float', '3.5')).toEqual({ ok: true, value: 3.5 });
    expect(readPropertyValue('float', 'NaN').ok).toBe(false);
    expect(readPropertyValue('datetime', '2024-05-01T10:00:00Z')).toEqual({ ok: true, value: '2024-05-01T10:00:00.000Z' });
    expect(readPropertyValue('datetime', '2024-05-01').ok).toBe(false);
    expect(readPropertyValue('datetime', '2024-02-30T10:00:00Z').ok).toBe(false);
    expect(readPropertyValue('string', 'x'.repeat(1001)).ok).toBe(false);
  });
});

describe('import log', () => {
  it('keeps the first 100 errors and warnings, counts them all, and the stop entry beyond them', () => {
    const skipped = Array.from({ length: 150 }, (_, index) => ({ index, reason: 'no_identifier', message: 'm' }));
    const warnings = Array.from({ length: 120 }, (_, index) => ({ index, field: `kids[${index % 3}]`, message: 'm' }));
    let log = addChunk(emptyLog(), { skipped, warnings, unknown: ['colour', 'colour', 'x'.repeat(80)] });
    log = addChunk(log, { skipped: [{ index: 200, reason: 'invalid_phone', message: 'm' }], warnings: [], unknown: ['colour'] });
    expect(log.errors).toHaveLength(MAX_LOG_ENTRIES);
    expect(log.warnings).toHaveLength(MAX_LOG_ENTRIES);
    expect(log.skipped_reasons).toEqual({ no_identifier: 150, invalid_phone: 1 });
    expect(log.dropped_fields).toEqual({ kids: 120 });
    expect(log.unknown_properties).toEqual({ colour: 3, [`${'x'.repeat(64)}…`]: 1 });
    log = addStop(log, 151, 'disk full');
    expect(log.errors).toHaveLength(MAX_LOG_ENTRIES + 1);
    expect(log.errors.at(-1)).toEqual({ index: 151, reason: 'stopped', message: 'disk full' });
  });

  it('lists at most 100 unknown codes', () => {
    const log = addChunk(emptyLog(), { skipped: [], warnings: [], unknown: Array.from({ length: 150 }, (_, i) => `c${i}`) });
    expect(Object.keys(log.unknown_properties)).toHaveLength(100);
  });
});
