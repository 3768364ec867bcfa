import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import {
  decodeComponent,
  decodeQueryValue,
  InvalidUtf8,
  parseBracketPairs,
  parseBracketQuery,
  parseQueryString,
} from '../../src/http/params.js';

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the parser to throw');
}

describe('parseBracketQuery (Rack rules)', () => {
  it('starts a new element of items[] when the key is already set in the last element', () => {
    expect(parseBracketQuery('items[][id]=1&items[][amount]=2&items[][id]=3')).toEqual({
      items: [{ id: '1', amount: '2' }, { id: '3' }],
    });
  });

  it('builds an object from name[key] pairs', () => {
    expect(parseBracketQuery('variables[name]=Ann&variables[city]=Omsk')).toEqual({
      variables: { name: 'Ann', city: 'Omsk' },
    });
  });

  it('builds an array of strings from name[] pairs', () => {
    expect(parseBracketQuery('cc[]=a@x.org&cc[]=b@x.org')).toEqual({ cc: ['a@x.org', 'b@x.org'] });
  });

  it('nests a[b][c]', () => {
    expect(parseBracketQuery('a[b][c]=1&a[b][d]=2&a[e]=3')).toEqual({ a: { b: { c: '1', d: '2' }, e: '3' } });
  });

  it('keeps nested keys of array elements together until one repeats', () => {
    expect(parseBracketQuery('a[][b][c]=1&a[][b][d]=2&a[][b][c]=3')).toEqual({
      a: [{ b: { c: '1', d: '2' } }, { b: { c: '3' } }],
    });
  });

  it('appends arrays inside array elements', () => {
    expect(parseBracketQuery('items[][id]=1&items[][tags][]=x&items[][tags][]=y')).toEqual({
      items: [{ id: '1', tags: ['x', 'y'] }],
    });
  });

  it('keeps the last value of a repeated plain key', () => {
    expect(parseBracketQuery('stream=web&stream=ios')).toEqual({ stream: 'ios' });
  });

  it('percent-decodes names and values and reads + as a space', () => {
    expect(parseBracketQuery('name=Ann+Lee&q=%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82&v%5Bk%5D=a%26b%3Dc')).toEqual({
      name: 'Ann Lee',
      q: 'Привет',
      v: { k: 'a&b=c' },
    });
  });

  it('gives null for a pair without `=` and an empty string for `name=`', () => {
    expect(parseBracketQuery('flag&empty=')).toEqual({ flag: null, empty: '' });
  });

  it('skips empty pairs and pairs without a name', () => {
    expect(parseBracketQuery('&&a=1&=2&')).toEqual({ a: '1' });
    expect(parseBracketQuery('')).toEqual({});
  });

  it('appends a hash element after a string element of the same array', () => {
    expect(parseBracketQuery('items[]=a&items[][id]=1')).toEqual({ items: ['a', { id: '1' }] });
  });

  it('rejects a name used both as a value and as a nested structure with 422 naming it', () => {
    const error = failure(() => parseBracketQuery('a=1&a[b]=2'));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('Parameter `a` is given both as a value and as a nested structure.');
    expect(failure(() => parseBracketQuery('items[]=1&items[x]=2')).message).toContain('`items`');
    expect(failure(() => parseBracketQuery('v[k]=1&v[k][]=2')).message).toContain('`v[k]`');
  });

  it('accepts 8 levels of nesting and rejects 9 with 422 naming the parameter', () => {
    expect(parseBracketQuery('a[b][c][d][e][f][g][h]=1')).toEqual({
      a: { b: { c: { d: { e: { f: { g: { h: '1' } } } } } } },
    });
    const error = failure(() => parseBracketQuery('a[b][c][d][e][f][g][h][i]=1'));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('Parameter `a[b][c][d][e][f][g][h][i]` is nested deeper than 8 levels.');
  });

  it('bounds the recursion of nested arrays too', () => {
    expect(failure(() => parseBracketQuery(`a${'[]'.repeat(20)}=1`)).message).toContain('nested deeper than 8 levels');
  });

  it('rejects an array longer than the limit with 422 naming it', () => {
    const limits = { maxParams: 100, maxDepth: 8, maxArrayLength: 3 };
    expect(parseBracketQuery('cc[]=1&cc[]=2&cc[]=3', limits)).toEqual({ cc: ['1', '2', '3'] });
    const error = failure(() => parseBracketQuery('cc[]=1&cc[]=2&cc[]=3&cc[]=4', limits));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('Parameter `cc[]` has more than 3 elements.');
    const items = 'items[][id]=1&items[][id]=2&items[][id]=3&items[][id]=4';
    expect(failure(() => parseBracketQuery(items, limits)).message).toBe('Parameter `items[]` has more than 3 elements.');
  });

  it('accepts 10,000 items by default and rejects the 10,001st', () => {
    const pairs = Array.from({ length: 10_000 }, (_, i) => `items[][id]=${i}`).join('&');
    expect((parseBracketQuery(pairs).items as unknown[]).length).toBe(10_000);
    expect(failure(() => parseBracketQuery(`${pairs}&items[][id]=x`)).message).toContain('more than 10000');
  });

  it('rejects more pairs than the limit with 413', () => {
    const limits = { maxParams: 3, maxDepth: 8, maxArrayLength: 100 };
    expect(parseBracketQuery('a=1&b=2&c=3', limits)).toEqual({ a: '1', b: '2', c: '3' });
    const error = failure(() => parseBracketQuery('a=1&b=2&c=3&d=4', limits));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toBe('The request has more than 3 parameters.');
    expect(
      failure(() =>
        parseBracketPairs(
          [
            ['a', '1'],
            ['b', '2'],
            ['c', '3'],
            ['d', '4'],
          ],
          limits,
        ),
      ).status,
    ).toBe(413);
  });

  it('never writes through __proto__ or into Object.prototype', () => {
    const parsed = parseBracketQuery(
      '__proto__[polluted]=1&a[__proto__][polluted]=2&b[][__proto__][polluted]=3&constructor[prototype][polluted]=4',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed).toEqual({ a: {}, b: [], constructor: { prototype: { polluted: '4' } } });
  });
});

describe('parseBracketPairs', () => {
  it('applies the same rules to already decoded pairs in order', () => {
    expect(
      parseBracketPairs([
        ['items[][id]', '1'],
        ['items[][amount]', '2'],
        ['items[][id]', '3'],
        ['name', 'a+b%20'],
      ]),
    ).toEqual({ items: [{ id: '1', amount: '2' }, { id: '3' }], name: 'a+b%20' });
  });
});

describe('decodeComponent', () => {
  it('leaves a % without two hex digits as it is and decodes the rest', () => {
    expect(decodeComponent('100%+sure%21')).toBe('100% sure!');
    expect(decodeComponent('%zz%41')).toBe('%zzA');
  });

  it('decodes multi-byte characters beside a malformed escape', () => {
    expect(decodeComponent('%D0%9F%zz')).toBe('П%zz');
  });

  it('refuses escapes that are not UTF-8 with InvalidUtf8', () => {
    expect(() => decodeComponent('%D0%9F%D0')).toThrow(InvalidUtf8);
    expect(() => decodeComponent('%ff%zz')).toThrow(InvalidUtf8);
  });
});

describe('parseBracketQuery and the text rule', () => {
  it('refuses a value whose escapes are not UTF-8 with 422 naming the parameter', () => {
    expect(() => parseBracketQuery('a=1&search_query=%D0%zz')).toThrow(
      'Parameter `search_query` is not valid UTF-8 text, which is not allowed.',
    );
  });

  it('refuses a name that is not UTF-8 or holds a NUL with 422', () => {
    expect(() => parseBracketQuery('%ff%zz=1')).toThrow('A parameter name is not valid UTF-8 text, which is not allowed.');
    expect(() => parseBracketQuery('a%00=1')).toThrow('A parameter name contains a NUL character (U+0000), which is not allowed.');
  });
});

describe('decodeQueryValue (contract-notes, "Wire format": reserved characters encoded twice)', () => {
  it.each([
    ['t-shirt%252C%20sand', 't-shirt, sand'],
    ['t-shirt%252C+sand', 't-shirt, sand'],
    ['ann%2540example.org', 'ann@example.org'],
    ['%252B79001234567', '+79001234567'],
    ['a%253Bb%252Cc%252Fd%253Fe%253Af%2540g%2526h%253Di%252Bj%2524k%2523l', 'a;b,c/d?e:f@g&h=i+j$k#l'],
    ['t-shirt%252c+sand', 't-shirt, sand'],
    ['t-shirt%2c+sand', 't-shirt, sand'],
  ])('decodes the reserved escape left in %j once more: %j', (raw, decoded) => {
    expect(decodeQueryValue(raw)).toBe(decoded);
  });

  it.each([
    ['%2525', '%25'],
    ['50%25', '50%'],
    ['%25252C', '%252C'],
    ['%2541', '%41'],
    ['%2520', '%20'],
    ['%252', '%2'],
    ['100%', '100%'],
    ['%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82', 'Привет'],
    ['ann@example.org', 'ann@example.org'],
  ])('decodes nothing else a second time: %j → %j', (raw, decoded) => {
    expect(decodeQueryValue(raw)).toBe(decoded);
  });

  it('applies to query-string values only: names and form bodies are decoded once', () => {
    expect(parseQueryString('q%252C=a%252Cb&list[]=x%2540y')).toEqual({ 'q%2C': 'a,b', list: ['x@y'] });
    expect(parseBracketQuery('q=a%252Cb')).toEqual({ q: 'a%2Cb' });
  });
});
