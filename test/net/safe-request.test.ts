import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeRequest } from '../../src/net/safe-request.js';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';

let server: LocalHttpServer;
const seen: { method: string; path: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = await startLocalHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      seen.push({ method: request.method ?? '', path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (path === '/hang') return;
      if (path === '/big') {
        response.writeHead(200).end(Buffer.alloc(5000, 1));
        return;
      }
      if (path === '/redirect') {
        response.writeHead(307, { location: '/api' }).end();
        return;
      }
      if (path === '/fail') {
        response.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":"busy"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
});

afterAll(async () => {
  await server.close();
});

const base = { timeoutMs: 2000, maxBytes: 1000, allowPrivate: true } as const;

describe('safeRequest', () => {
  it('sends the method, headers and body, and returns the status and body', async () => {
    const result = await safeRequest(`${server.url}/api?x=1`, {
      ...base,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"text":"héllo"}',
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    if (!result.ok) return;
    expect(result.body.toString()).toBe('{"ok":true}');
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/api?x=1', body: '{"text":"héllo"}' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': '17' });
  });

  it('answers an HTTP error status as an answer, not a failure, with its headers', async () => {
    const result = await safeRequest(`${server.url}/fail`, { ...base, method: 'POST', body: '{}' });
    expect(result).toMatchObject({ ok: true, status: 503 });
    if (result.ok) expect(result.headers['retry-after']).toBe('7');
  });

  it('does not follow a redirect', async () => {
    const before = seen.length;
    const result = await safeRequest(`${server.url}/redirect`, { ...base, method: 'POST', body: '{}' });
    expect(result).toMatchObject({ ok: true, status: 307 });
    expect(seen.length).toBe(before + 1);
  });

  it('refuses a private address unless it is allowed', async () => {
    const result = await safeRequest(`${server.url}/api`, { ...base, allowPrivate: false, method: 'GET' });
    expect(result).toMatchObject({ ok: false, code: 'refused_address' });
    const listed = await safeRequest(`${server.url}/api`, { ...base, allowPrivate: ['127.0.0.0/8'], method: 'GET' });
    expect(listed).toMatchObject({ ok: true, status: 200 });
  });

  it('stops at the deadline with a reason that names the request', async () => {
    const result = await safeRequest(`${server.url}/hang`, { ...base, timeoutMs: 200, method: 'POST', body: 'x' });
    expect(result).toEqual({ ok: false, code: 'timeout', reason: 'The request did not finish within 200 ms.' });
  });

  it('stops reading an answer past maxBytes', async () => {
    const result = await safeRequest(`${server.url}/big`, { ...base, method: 'GET' });
    expect(result).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('refuses links that are not http or https', async () => {
    const result = await safeRequest('ftp://example.org/x', { ...base, method: 'GET' });
    expect(result).toMatchObject({ ok: false, code: 'invalid_url' });
  });
});
