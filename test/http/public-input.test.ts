import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { createPublicTestApp, expectStatusError, expectSuccessError, multipartRequest } from './public-test-app.js';
import { testRoutes } from './test-routes.js';

const RACK_EXAMPLE = 'items[][id]=1&items[][amount]=2&items[][id]=3&variables[name]=Ann&cc[]=a@x.org&cc[]=b@x.org&a[b][c]=1';
const RACK_PARSED = {
  items: [{ id: '1', amount: '2' }, { id: '3' }],
  variables: { name: 'Ann' },
  cc: ['a@x.org', 'b@x.org'],
  a: { b: { c: '1' } },
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('public request input', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPublicTestApp([testRoutes], { env: { PATRON_BODY_LIMIT: '2048' } });
  });
  afterAll(async () => {
    await t.close();
  });

  async function echo(request: InjectOptions): Promise<unknown> {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ payload: { input: unknown } }>().payload.input;
  }

  describe('bracket parameters', () => {
    it('parses them in the query string by Rack’s rules', async () => {
      expect(await echo({ method: 'GET', url: `/test/echo?${RACK_EXAMPLE}` })).toEqual(RACK_PARSED);
    });

    it('parses them in an urlencoded body by the same rules', async () => {
      expect(await echo({ method: 'POST', url: '/test/echo', headers: FORM, payload: RACK_EXAMPLE })).toEqual(RACK_PARSED);
      const withCharset = { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };
      expect(await echo({ method: 'POST', url: '/test/echo', headers: withCharset, payload: 'b=%D0%AF' })).toEqual({ b: 'Я' });
    });

    it('parses bracketed multipart field names by the same rules, in order', async () => {
      const fields = RACK_EXAMPLE.split('&').map((pair) => pair.split('=') as [string, string]);
      expect(await echo({ method: 'POST', url: '/test/echo', ...multipartRequest(fields) })).toEqual(RACK_PARSED);
    });

    it('percent-decodes the query string and reads + as a space', async () => {
      expect(await echo({ method: 'GET', url: '/test/echo?name=Ann+Lee&city=%D0%9E%D0%BC%D1%81%D0%BA' })).toEqual({
        name: 'Ann Lee',
        city: 'Омск',
      });
    });

    it('answers 422 naming the parameter for nesting deeper than allowed', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/test/echo?a[b][c][d][e][f][g][h][i]=1' });
      expectStatusError(response, 422, 'Parameter `a[b][c][d][e][f][g][h][i]` is nested deeper than 8 levels.');
    });

    it('answers 422 naming the parameter when one name is both a value and a structure', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/test/echo-success', headers: FORM, payload: 'a=1&a[b]=2' });
      expectSuccessError(response, 422, 'Parameter `a` is given both as a value and as a nested structure.');
    });

    it('refuses a file in a multipart form with 422 and keeps serving', async () => {
      const request = multipartRequest([['a', '1']], { name: 'upload', filename: 'x.bin', content: 'binary' });
      expectStatusError(await t.app.inject({ method: 'POST', url: '/test/echo', ...request }), 422, 'The form must not contain files.');
      expect(await echo({ method: 'POST', url: '/test/echo', ...multipartRequest([['a', '1']]) })).toEqual({ a: '1' });
    });

    it('answers 400 for a multipart body without a boundary, and 422 for a reserved field name', async () => {
      const noBoundary = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'multipart/form-data' },
        payload: 'a=1',
      });
      expectStatusError(noBoundary, 400, 'The multipart body is malformed.');
      const { headers } = multipartRequest([]);
      const boundary = headers['content-type']!.split('boundary=')[1]!;
      const reserved = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers,
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="toString"\r\n\r\nv\r\n--${boundary}--\r\n`,
      });
      expectStatusError(reserved, 422, 'A form field has a reserved name.');
    });
  });

  describe('absent values', () => {
    it('drops JSON null values at every level of objects', async () => {
      const payload = { stream: null, sid: 'abc', variables: { name: null, city: 'Omsk' }, items: [{ id: '1', price: null }] };
      expect(await echo({ method: 'POST', url: '/test/echo', payload })).toEqual({
        sid: 'abc',
        variables: { city: 'Omsk' },
        items: [{ id: '1' }],
      });
    });

    it('treats the literal string null from the query string or a form as absent', async () => {
      expect(await echo({ method: 'GET', url: '/test/echo?stream=null&x=1&v[k]=null' })).toEqual({ x: '1', v: {} });
      expect(await echo({ method: 'POST', url: '/test/echo', headers: FORM, payload: 'stream=null&x=1' })).toEqual({ x: '1' });
    });

    it('lets a query value stand when the body sends the same key as null', async () => {
      expect(await echo({ method: 'POST', url: '/test/echo?stream=web', payload: { stream: null } })).toEqual({ stream: 'web' });
    });
  });

  describe('sources', () => {
    it('accepts seance as sid, and sid wins when both differ', async () => {
      expect(await echo({ method: 'GET', url: '/test/echo?seance=abcdefghij' })).toEqual({ sid: 'abcdefghij' });
      expect(await echo({ method: 'GET', url: '/test/echo?seance=aaaaaaaaaa&sid=bbbbbbbbbb' })).toEqual({ sid: 'bbbbbbbbbb' });
      expect(await echo({ method: 'POST', url: '/test/echo?sid=bbbbbbbbbb', payload: { seance: 'aaaaaaaaaa' } })).toEqual({
        sid: 'bbbbbbbbbb',
      });
    });

    it('lets the body win over the query string', async () => {
      expect(await echo({ method: 'POST', url: '/test/echo?a=query&b=query', payload: { a: 'body' } })).toEqual({
        a: 'body',
        b: 'query',
      });
      expect(await echo({ method: 'POST', url: '/test/echo?a=query', headers: FORM, payload: 'a=form' })).toEqual({ a: 'form' });
    });

    it('serves a GET with a form content type and an empty body', async () => {
      expect(await echo({ method: 'GET', url: '/test/echo?a=1', headers: FORM })).toEqual({ a: '1' });
      expect(await echo({ method: 'GET', url: '/test/echo?a=1', headers: FORM, payload: '' })).toEqual({ a: '1' });
    });

    it('reads the JSON body of a GET as a POST body is read: merged, the body winning, JSON null absent', async () => {
      const json = { 'content-type': 'application/json' };
      const payload = JSON.stringify({ shop_id: 'abc', a: 'body', stream: null, n: 2 });
      expect(await echo({ method: 'GET', url: '/test/echo?a=query&b=query', headers: json, payload })).toEqual({
        shop_id: 'abc',
        a: 'body',
        b: 'query',
        n: 2,
      });
    });

    it('reads the form body of a GET too, and ignores a GET body of any other type', async () => {
      expect(await echo({ method: 'GET', url: '/test/echo?a=1', headers: FORM, payload: 'b[]=2&b[]=3' })).toEqual({
        a: '1',
        b: ['2', '3'],
      });
      const other = { 'content-type': 'application/octet-stream' };
      expect(await echo({ method: 'GET', url: '/test/echo?a=1', headers: other, payload: 'zzz' })).toEqual({ a: '1' });
    });

    it('answers 400 for a GET with malformed JSON and 413 for a GET body over the limit', async () => {
      const json = { 'content-type': 'application/json' };
      const bad = await t.app.inject({ method: 'GET', url: '/test/echo', headers: json, payload: '{"a":' });
      expectStatusError(bad, 400, 'The request body is not valid JSON.');
      const large = await t.app.inject({
        method: 'GET',
        url: '/test/echo',
        headers: json,
        payload: JSON.stringify({ a: 'x'.repeat(4096) }),
      });
      expectStatusError(large, 413, 'The request body is too large.');
    });

    it('refuses bytes that are not UTF-8 in a GET body with 422 naming the field, as in a POST body', async () => {
      const payload = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xff]), Buffer.from('"}')]);
      for (const method of ['GET', 'POST'] as const) {
        const response = await t.app.inject({ method, url: '/test/echo', headers: { 'content-type': 'application/json' }, payload });
        expectStatusError(response, 422, 'Parameter `a` is not valid UTF-8 text, which is not allowed.');
      }
    });

    it('serves a POST with a form or JSON content type and an empty body', async () => {
      expect(await echo({ method: 'POST', url: '/test/echo?a=1', headers: FORM, payload: '' })).toEqual({ a: '1' });
      const json = { 'content-type': 'application/json' };
      expect(await echo({ method: 'POST', url: '/test/echo?a=1', headers: json, payload: '' })).toEqual({ a: '1' });
    });

    it('reads a text/plain body as JSON, as browser SDKs send it', async () => {
      const headers = { 'content-type': 'text/plain;charset=UTF-8' };
      expect(await echo({ method: 'POST', url: '/test/echo', headers, payload: '{"a":1}' })).toEqual({ a: 1 });
    });

    it('reads a PATCH body like a POST body', async () => {
      expect(await echo({ method: 'PATCH', url: '/test/echo', payload: { id: 'x' } })).toEqual({ id: 'x' });
    });
  });

  describe('bad bodies', () => {
    it('answers 400 with one sentence for malformed JSON', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expectStatusError(response, 400, 'The request body is not valid JSON.');
    });

    it.each([
      ['an array', '[1,2]'],
      ['a number', '42'],
      ['a string', '"x"'],
      ['null', 'null'],
    ])('answers 422 naming the body when the JSON body is %s', async (_label, payload) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo-success',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectSuccessError(response, 422, 'The request body must be a JSON object.');
    });

    it('answers 422 for JSON nested deeper than allowed instead of overflowing', async () => {
      const payload = `{"a":${'['.repeat(40)}${']'.repeat(40)}}`;
      const response = await t.app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': 'application/json' }, payload });
      expectStatusError(response, 422);
    });

    it('answers 413 for a body over the configured limit, in each body format', async () => {
      const big = 'x'.repeat(3000);
      expectStatusError(await t.app.inject({ method: 'POST', url: '/test/echo', payload: { big } }), 413, 'The request body is too large.');
      expectSuccessError(
        await t.app.inject({ method: 'POST', url: '/test/echo-success', headers: FORM, payload: `big=${big}` }),
        413,
        'The request body is too large.',
      );
      const multipart = await t.app.inject({ method: 'POST', url: '/test/echo', ...multipartRequest([['big', big]]) });
      expectStatusError(multipart, 413, 'The request body is too large.');
    });

    it('answers 415 for a content type the public API does not read', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      expectStatusError(response, 415, 'The content type of the request body is not supported.');
    });
  });
});
