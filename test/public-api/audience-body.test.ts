import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { AudienceRecords, scanAudienceBody } from '../../src/public-api/audience/audience-body.js';

/** The scanner of POST /import/audience bodies: JSON checked in full, records cut into chunks as sent. */

const OPTIONS = { chunkRecords: 3, chunkBytes: 1000, maxRecords: 10 };

function scan(text: string, options = OPTIONS) {
  return scanAudienceBody(Buffer.from(text, 'utf8'), options);
}

function failure(text: string): { code: string; message: string } {
  try {
    scan(text);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`accepted: ${text}`);
}

/** The records of the chunks, parsed back. */
function recordsOf(input: Record<string, unknown>): unknown[] {
  const audience = input.audience as AudienceRecords;
  return audience.chunks.flatMap((chunk) => JSON.parse(`[${chunk.body.toString('utf8')}]`) as unknown[]);
}

describe('audience body scanner', () => {
  it('reads the other fields as usual and cuts the records into chunks of the bytes sent', () => {
    const input = scan(
      ' {"shop_id":"abc", "segment_id": 7, "stream": null, "audience": [ {"email":"a@x.org"} , {"phone":"79"},\n{"email":"\\"q\\"@x.org","kids":[{"gender":"m"}]}, "x", 5 , null ], "extra": {"a": [1, 2.5e-3, true, false, null]} } ',
    );
    expect(input.shop_id).toBe('abc');
    expect(input.segment_id).toBe(7);
    expect(input).not.toHaveProperty('stream');
    expect(input.extra).toEqual({ a: [1, 0.0025, true, false, null] });
    const audience = input.audience as AudienceRecords;
    expect(audience).toBeInstanceOf(AudienceRecords);
    expect(audience.count).toBe(6);
    expect(audience.chunks.map((c) => c.records)).toEqual([3, 3]);
    expect(audience.chunks[0]!.body.toString()).toBe(
      '{"email":"a@x.org"} , {"phone":"79"},\n{"email":"\\"q\\"@x.org","kids":[{"gender":"m"}]}',
    );
    expect(recordsOf(input)).toEqual([
      { email: 'a@x.org' },
      { phone: '79' },
      { email: '"q"@x.org', kids: [{ gender: 'm' }] },
      'x',
      5,
      null,
    ]);
  });

  it('ends a chunk before the record that would take it past the byte bound', () => {
    const big = `{"note":"${'n'.repeat(400)}"}`;
    const input = scan(`{"audience":[${big},${big},${big},{"a":1}]}`);
    expect((input.audience as AudienceRecords).chunks.map((c) => c.records)).toEqual([2, 2]);
    expect(recordsOf(input)).toHaveLength(4);
  });

  it('counts records beyond the maximum without keeping them', () => {
    const records = Array.from({ length: 12 }, () => '{}').join(',');
    const audience = scan(`{"audience":[${records}]}`).audience as AudienceRecords;
    expect(audience.count).toBe(12);
    expect(audience.chunks).toEqual([]);
  });

  it('reads an empty body as no parameters, an empty array as no records, and keeps a non-array audience as sent', () => {
    expect(scan('  ')).toEqual({});
    expect((scan('{"audience":[]}').audience as AudienceRecords).count).toBe(0);
    expect(scan('{"audience":"text"}').audience).toBe('text');
    expect(scan('{"audience":{"email":"a@x.org"}}').audience).toEqual({ email: 'a@x.org' });
    expect(scan('{"audience":null}')).toEqual({});
    expect(scan('{"audience":[{}],"audience":null}')).toEqual({});
    expect(scan('\uFEFF{"a":1}')).toEqual({ a: 1 });
  });

  it.each([
    ['a trailing comma in the array', '{"audience":[{},]}'],
    ['a trailing comma in the object', '{"audience":[],}'],
    ['an empty element', '{"audience":[{},,{}]}'],
    ['a missing comma', '{"audience":[{} {}]}'],
    ['an unclosed array', '{"audience":[{}'],
    ['an unclosed string', '{"audience":[{"a":"b}]}'],
    ['a bad escape', '{"audience":[{"a":"\\x"}]}'],
    ['a short unicode escape', '{"audience":[{"a":"\\u12"}]}'],
    ['a raw line break in a string', '{"audience":[{"a":"b\nc"}]}'],
    ['a leading zero', '{"audience":[{"a":01}]}'],
    ['a bare fraction', '{"audience":[{"a":.5}]}'],
    ['an exponent without digits', '{"audience":[{"a":1e}]}'],
    ['a misspelt literal', '{"audience":[{"a":tru}]}'],
    ['a single-quoted string', "{'audience':[]}"],
    ['an unquoted key inside a record', '{"audience":[{a:1}]}'],
    ['mismatched brackets', '{"audience":[{"a":[1}]]}'],
    ['garbage after the object', '{"audience":[]} x'],
    ['a bad value elsewhere', '{"shop_id":abc,"audience":[]}'],
  ])('refuses %s with 400', (_name, text) => {
    expect(failure(text)).toEqual({ code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
  });

  it('refuses a body that is JSON but not an object, and records nested too deep, with 422', () => {
    expect(failure('[{"email":"a@x.org"}]')).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The request body must be a JSON object.',
    });
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    expect(failure(`{"audience":[${deep}]}`)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('keeps multi-byte text intact in the stored bytes', () => {
    const input = scan('{"audience":[{"first_name":"Анна","last_name":"Ёлкина 🎄"}]}');
    expect(recordsOf(input)).toEqual([{ first_name: 'Анна', last_name: 'Ёлкина 🎄' }]);
  });
});
