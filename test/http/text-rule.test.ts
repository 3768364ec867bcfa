import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { inputFromForm, inputFromJsonBody } from '../../src/http/input.js';
import { checkStorableValue, decodeBody, invalidBytesError, textProblem } from '../../src/http/text-rule.js';

function thrown(work: () => unknown): AppError | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  return undefined;
}

describe('textProblem', () => {
  it('finds a NUL anywhere in a string', () => {
    expect(textProblem('a\u0000b')).toBe('nul');
    expect(textProblem('\u0000')).toBe('nul');
  });

  it('finds lone surrogates, high or low, but accepts a pair', () => {
    expect(textProblem('x\uD800')).toBe('invalid_utf8');
    expect(textProblem('\uDFFFx')).toBe('invalid_utf8');
    expect(textProblem('\uD83D\uDE00 ok')).toBeUndefined();
  });

  it('accepts ordinary text, control characters other than NUL and U+FFFD', () => {
    expect(textProblem('Привет, мир\t\n\u0001\uFFFD')).toBeUndefined();
  });
});

describe('the public input walk applies the rule', () => {
  it('refuses a NUL in a JSON value with 422 naming the parameter path', () => {
    const error = thrown(() => inputFromJsonBody({ items: [{ id: 'p1' }, { id: 'p\u0000' }] }));
    expect(error?.status).toBe(422);
    expect(error?.message).toBe('Parameter `items[1][id]` contains a NUL character (U+0000), which is not allowed.');
  });

  it('refuses a NUL or a lone surrogate in a name, without repeating the name', () => {
    expect(thrown(() => inputFromJsonBody({ 'a\u0000': 1 }))?.message).toBe(
      'A parameter name contains a NUL character (U+0000), which is not allowed.',
    );
    expect(thrown(() => inputFromJsonBody({ source: { '\uD800': 'x' } }))?.message).toBe(
      'A name in `source` is not valid UTF-8 text, which is not allowed.',
    );
  });

  it('applies to form input too, and lets absent values pass', () => {
    expect(thrown(() => inputFromForm({ stream: 'a\u0000' }))?.message).toContain('Parameter `stream` contains a NUL');
    expect(inputFromForm({ 'gone\u0000': null })).toEqual({});
  });
});

describe('checkStorableValue (admin)', () => {
  it('names the field in the admin spelling for each part of the request', () => {
    expect(thrown(() => checkStorableValue({ name: 'a\u0000' }, 'body'))?.message).toBe(
      'Field `name` contains a NUL character (U+0000), which is not allowed.',
    );
    expect(thrown(() => checkStorableValue({ rules: [{ value: '\uDC00' }] }, 'body'))?.message).toBe(
      'Field `rules[0].value` is not valid UTF-8 text, which is not allowed.',
    );
    expect(thrown(() => checkStorableValue({ shop_id: 'x\u0000' }, 'params'))?.message).toContain('Path parameter `shop_id`');
    expect(thrown(() => checkStorableValue({ q: 'x\u0000' }, 'querystring'))?.message).toContain('Query parameter `q`');
    expect(thrown(() => checkStorableValue({ a: { 'k\u0000': 1 } }, 'body'))?.message).toBe(
      'A name in field `a` contains a NUL character (U+0000), which is not allowed.',
    );
  });

  it('walks objects made by null-prototype constructors (the router’s params)', () => {
    function NullObject(this: Record<string, unknown>) {}
    NullObject.prototype = Object.create(null) as object;
    const params = new (NullObject as unknown as new () => Record<string, unknown>)();
    params.id = 'a\u0000';
    expect(thrown(() => checkStorableValue(params, 'params'))?.status).toBe(422);
  });

  it('refuses nesting deeper than the bound with 422, without exhausting the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(thrown(() => checkStorableValue({ a: deep }, 'body'))?.message).toBe('The request body is nested deeper than 64 levels.');
    expect(() => checkStorableValue({ a: [[['ok']]] }, 'body')).not.toThrow();
  });

  it('accepts clean values, numbers, booleans and null', () => {
    expect(() => checkStorableValue({ a: 1, b: true, c: null, d: ['x', { e: 'é' }] }, 'body')).not.toThrow();
  });
});

describe('bodies whose bytes are not UTF-8', () => {
  const bytes = Buffer.concat([Buffer.from('{"name":"ok","items":[{"id":"p'), Buffer.from([0xff]), Buffer.from('"}]}')]);

  it('are flagged when decoded', () => {
    expect(decodeBody(Buffer.from('{"a":"é"}'))).toEqual({ text: '{"a":"é"}', notUtf8: false });
    expect(decodeBody(bytes).notUtf8).toBe(true);
  });

  it('are refused naming the field that held the bad bytes, in each scope’s spelling', () => {
    const value: unknown = JSON.parse(decodeBody(bytes).text);
    expect(invalidBytesError(value, 'public').message).toBe('Parameter `items[0][id]` is not valid UTF-8 text, which is not allowed.');
    expect(invalidBytesError(value, 'admin').message).toBe('Field `items[0].id` is not valid UTF-8 text, which is not allowed.');
    expect(invalidBytesError({ '\uFFFD': 1 }, 'admin').message).toBe(
      'A name in the request body is not valid UTF-8 text, which is not allowed.',
    );
  });
});
