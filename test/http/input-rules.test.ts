import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { bracketName, describeError, validationMessage } from '../../src/http/http-errors.js';
import { inputFromForm, inputFromJsonBody, mergeInput } from '../../src/http/input.js';

describe('inputFromJsonBody', () => {
  it('drops null-valued keys at every level and keeps array elements in place', () => {
    expect(inputFromJsonBody({ a: null, b: { c: null, d: [null, { e: null, f: 1 }] } })).toEqual({
      b: { d: [null, { f: 1 }] },
    });
  });

  it('keeps the string "null" in JSON: only query strings and forms spell absence that way', () => {
    expect(inputFromJsonBody({ stream: 'null' })).toEqual({ stream: 'null' });
  });

  it('drops __proto__ keys from the body', () => {
    const parsed = inputFromJsonBody(JSON.parse('{"__proto__":{"polluted":1},"a":{"__proto__":{"x":1}}}'));
    expect(parsed).toEqual({ a: {} });
    expect(Object.getPrototypeOf(parsed.a)).toBe(Object.prototype);
  });

  it('rejects a body that is not an object with 422 naming the body', () => {
    for (const value of [[], 1, 'x', null, true]) {
      expect(() => inputFromJsonBody(value)).toThrow('The request body must be a JSON object.');
    }
  });

  it('rejects nesting beyond the limit with 422 naming the parameter', () => {
    expect(inputFromJsonBody({ a: [[[1]]] }, 3)).toEqual({ a: [[[1]]] });
    const error = (() => {
      try {
        inputFromJsonBody({ a: [[[[1]]]] }, 3);
      } catch (e) {
        return e as AppError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('VALIDATION_FAILED');
    expect(error?.message).toBe('Parameter `a[0][0][0]` is nested deeper than 3 levels.');
  });
});

describe('inputFromJsonBody bounds arrays', () => {
  it('accepts 10,000 elements and refuses more with 422 naming the parameter, as forms do', () => {
    expect((inputFromJsonBody({ items: new Array(10_000).fill(1) }).items as unknown[]).length).toBe(10_000);
    expect(() => inputFromJsonBody({ a: { items: new Array(10_001).fill('x') } })).toThrow(
      'Parameter `a[items]` has more than 10000 elements.',
    );
  });
});

describe('inputFromForm and mergeInput', () => {
  it('drops null and the literal "null" from form objects', () => {
    expect(inputFromForm({ stream: 'null', flag: null, v: { k: 'null', j: 'x' }, cc: ['null'] })).toEqual({
      v: { j: 'x' },
      cc: ['null'],
    });
  });

  it('lets the body win key by key and maps seance to sid', () => {
    expect(mergeInput({ a: 'q', b: 'q', seance: 's1' }, { a: 'b' })).toEqual({ a: 'b', b: 'q', sid: 's1' });
    expect(mergeInput({ sid: 's2' }, { seance: 's1' })).toEqual({ sid: 's2' });
  });
});

describe('describeError', () => {
  it('keeps an AppError’s status and sentence', () => {
    expect(describeError(new AppError('CONFLICT', 'Order is cancelled.'))).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Order is cancelled.',
      internal: false,
    });
  });

  it('replaces the text of framework 4xx errors with a sentence of ours', () => {
    const tooLarge = Object.assign(new RangeError('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(describeError(tooLarge)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' });
  });

  it('hides anything else behind a generic 500', () => {
    expect(describeError(new Error('ECONNREFUSED 10.0.0.5:5432'))).toEqual({
      status: 500,
      code: 'INTERNAL',
      message: 'Internal server error.',
      internal: true,
    });
    expect(describeError(Object.assign(new Error('x'), { statusCode: 502 })).status).toBe(500);
  });
});

describe('validationMessage', () => {
  it('names nested parameters in bracket notation', () => {
    expect(bracketName('/items/0/id')).toBe('items[0][id]');
    expect(bracketName('', 'event')).toBe('event');
    expect(validationMessage({ keyword: 'required', instancePath: '/items/1', params: { missingProperty: 'id' } })).toBe(
      'Parameter `items[1][id]` is required.',
    );
    expect(validationMessage({ keyword: 'enum', instancePath: '/segment', params: { allowedValues: ['A', 'B'] } })).toBe(
      'Parameter `segment` must be one of `A`, `B`.',
    );
    expect(validationMessage({ keyword: 'maximum', instancePath: '/limit', params: { limit: 50, comparison: '<=' } })).toBe(
      'Parameter `limit` must be at most 50.',
    );
    expect(validationMessage({ keyword: 'type', instancePath: '/depth', params: { type: 'integer' } })).toBe(
      'Parameter `depth` must be an integer.',
    );
  });
});
