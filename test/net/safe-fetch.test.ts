import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafeFetchError, safeFetchBuffer, safeFetchStream } from '../../src/net/safe-fetch.js';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';

const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let v4: LocalHttpServer;
let v6: LocalHttpServer;

beforeAll(async () => {
  v6 = await startLocalHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('from ::1');
  }, '::1');
  v4 = await startLocalHttpServer((request, response) => {
    const path = request.url ?? '';
    switch (path) {
      case '/ok':
        response.writeHead(200, { 'content-type': 'image/PNG; charset=binary' }).end(PNG_BYTES);
        return;
      case '/big-header':
        // Announces 2000 bytes; sends some and would send the rest.
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': '2000' });
        response.write(Buffer.alloc(100));
        return;
      case '/big-stream':
        response.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 30; i += 1) response.write(Buffer.alloc(100, 1));
        response.end();
        return;
      case '/gzip':
        response.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' });
        response.end(zlib.gzipSync('<yml_catalog/>'));
        return;
      case '/gzip-bomb':
        response.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' });
        response.end(zlib.gzipSync(Buffer.alloc(5 * 1024 * 1024)));
        return;
      case '/slow-body':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.write(Buffer.alloc(10));
        return; // never ends
      case '/slow-headers':
        return; // never answers
      case '/html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html></html>');
        return;
      case '/untyped':
        response.writeHead(200).end('bytes');
        return;
      case '/missing':
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
        return;
      case '/redirect-relative':
        response.writeHead(302, { location: '/ok' }).end();
        return;
      case '/redirect-loop':
        response.writeHead(301, { location: '/redirect-loop' }).end();
        return;
      case '/redirect-v6':
        response.writeHead(307, { location: `${v6.url}/secret` }).end();
        return;
      case '/redirect-file':
        response.writeHead(302, { location: 'file:///etc/passwd' }).end();
        return;
      default:
        response.writeHead(500).end();
    }
  });
});

afterAll(async () => {
  await v4?.close();
  await v6?.close();
});

const LIMITS = { maxBytes: 1000, timeoutMs: 5000 };

describe('safeFetchBuffer and safeFetchStream', () => {
  it('fetches a body from a local server when private addresses are allowed', async () => {
    const result = await safeFetchBuffer(`${v4.url}/ok`, { ...LIMITS, allowPrivate: true, contentTypes: ['image/'] });
    expect(result).toMatchObject({ ok: true, status: 200, contentType: 'image/png', url: `${v4.url}/ok` });
    expect(result.ok && result.body.equals(PNG_BYTES)).toBe(true);
  });

  it('refuses the same link without allowPrivate, before connecting', async () => {
    const before = v4.requests.length;
    const result = await safeFetchBuffer(`${v4.url}/ok`, LIMITS);
    expect(result).toEqual({
      ok: false,
      code: 'refused_address',
      reason: 'The link points to a local or private network address, which is not allowed.',
    });
    expect(v4.requests.length).toBe(before);
  });

  it('refuses a host name that resolves to loopback, and reaches it through the checked address when allowed', async () => {
    const link = `http://localhost:${v4.port}/ok`;
    expect(await safeFetchBuffer(link, LIMITS)).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await safeFetchBuffer(link, { ...LIMITS, allowPrivate: true })).toMatchObject({ ok: true, status: 200 });
  });

  it('refuses IPv6 loopback and IPv4-mapped loopback literals', async () => {
    expect(await safeFetchBuffer(`${v6.url}/`, LIMITS)).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await safeFetchBuffer(`http://[::ffff:127.0.0.1]:${v4.port}/ok`, LIMITS)).toMatchObject({
      ok: false,
      code: 'refused_address',
    });
    expect(v6.requests).toEqual([]);
    const allowed = await safeFetchBuffer(`${v6.url}/`, { ...LIMITS, allowPrivate: true });
    expect(allowed.ok && allowed.body.toString()).toBe('from ::1');
  });

  it('checks every redirect hop: a redirect to a private address outside the allowed list is refused', async () => {
    const before = v6.requests.length;
    const result = await safeFetchBuffer(`${v4.url}/redirect-v6`, { ...LIMITS, allowPrivate: ['127.0.0.1'] });
    expect(result).toMatchObject({ ok: false, code: 'refused_address' });
    expect(v6.requests.length).toBe(before);
  });

  it('follows a relative redirect and reports the final link', async () => {
    const result = await safeFetchBuffer(`${v4.url}/redirect-relative`, { ...LIMITS, allowPrivate: ['127.0.0.1/32'] });
    expect(result).toMatchObject({ ok: true, url: `${v4.url}/ok` });
  });

  it('stops after maxRedirects redirects', async () => {
    const before = v4.requests.length;
    const result = await safeFetchBuffer(`${v4.url}/redirect-loop`, { ...LIMITS, allowPrivate: true, maxRedirects: 2 });
    expect(result).toEqual({ ok: false, code: 'too_many_redirects', reason: 'The link redirected more than 2 times.' });
    expect(v4.requests.length - before).toBe(3);
  });

  it('refuses a redirect to a scheme other than http and https', async () => {
    const result = await safeFetchBuffer(`${v4.url}/redirect-file`, { ...LIMITS, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, code: 'invalid_url', reason: 'Only http and https links can be fetched.' });
  });

  it.each([['ftp://127.0.0.1/feed.xml'], ['file:///etc/passwd'], ['javascript:alert(1)'], ['data:text/plain,hi']])(
    'refuses the non-http link %s',
    async (link) => {
      expect(await safeFetchBuffer(link, { ...LIMITS, allowPrivate: true })).toMatchObject({
        ok: false,
        code: 'invalid_url',
      });
    },
  );

  it('refuses a string that is not a URL', async () => {
    expect(await safeFetchBuffer('not a link', LIMITS)).toEqual({
      ok: false,
      code: 'invalid_url',
      reason: 'The link is not a valid URL.',
    });
  });

  it('reports a host name that does not resolve', async () => {
    expect(await safeFetchBuffer('http://patron-test.invalid/x.png', LIMITS)).toEqual({
      ok: false,
      code: 'unresolvable',
      reason: 'The host name of the link could not be resolved.',
    });
  });

  it('refuses at once a body whose Content-Length passes the limit', async () => {
    const result = await safeFetchStream(`${v4.url}/big-header`, { ...LIMITS, allowPrivate: true });
    expect(result).toEqual({ ok: false, code: 'too_large', reason: 'The file is larger than 1000 bytes.' });
  });

  it('errors a streamed body once it passes the limit', async () => {
    const result = await safeFetchStream(`${v4.url}/big-stream`, { ...LIMITS, allowPrivate: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    let received = 0;
    const read = async () => {
      for await (const chunk of result.body) received += (chunk as Buffer).length;
    };
    const error = await read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SafeFetchError);
    expect(error).toMatchObject({ code: 'too_large', message: 'The file is larger than 1000 bytes.' });
    expect(received).toBeLessThanOrEqual(1000);
    expect(await safeFetchBuffer(`${v4.url}/big-stream`, { ...LIMITS, allowPrivate: true })).toMatchObject({
      ok: false,
      code: 'too_large',
    });
  });

  it('decodes a gzip body, and counts the limit on the decoded bytes (a gzip bomb stops)', async () => {
    const plain = await safeFetchBuffer(`${v4.url}/gzip`, { ...LIMITS, allowPrivate: true });
    expect(plain.ok && plain.body.toString()).toBe('<yml_catalog/>');
    const bomb = await safeFetchBuffer(`${v4.url}/gzip-bomb`, { maxBytes: 1024 * 1024, timeoutMs: 5000, allowPrivate: true });
    expect(bomb).toEqual({ ok: false, code: 'too_large', reason: 'The file is larger than 1 MB.' });
  });

  it('gives up on a body that does not finish in time', async () => {
    const started = Date.now();
    const result = await safeFetchBuffer(`${v4.url}/slow-body`, { maxBytes: 1000, timeoutMs: 300, allowPrivate: true });
    expect(result).toEqual({ ok: false, code: 'timeout', reason: 'The download did not finish within 300 ms.' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives up on a server that never answers', async () => {
    const result = await safeFetchStream(`${v4.url}/slow-headers`, { maxBytes: 1000, timeoutMs: 300, allowPrivate: true });
    expect(result).toEqual({ ok: false, code: 'timeout', reason: 'The download did not finish within 300 ms.' });
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await safeFetchBuffer(`${v4.url}/slow-body`, {
      ...LIMITS,
      allowPrivate: true,
      signal: controller.signal,
    });
    expect(result).toEqual({ ok: false, code: 'aborted', reason: 'The download was cancelled.' });
  });

  it('refuses a content type outside the accepted prefixes, or none', async () => {
    const options = { ...LIMITS, allowPrivate: true, contentTypes: ['image/'] };
    expect(await safeFetchBuffer(`${v4.url}/html`, options)).toEqual({
      ok: false,
      code: 'content_type',
      reason: 'The server sent text/html, which is not an accepted type.',
    });
    expect(await safeFetchBuffer(`${v4.url}/untyped`, options)).toEqual({
      ok: false,
      code: 'content_type',
      reason: 'The server did not say what type of file it sent.',
    });
    expect(await safeFetchBuffer(`${v4.url}/untyped`, { ...LIMITS, allowPrivate: true })).toMatchObject({ ok: true });
  });

  it('reports an HTTP error status with its code', async () => {
    expect(await safeFetchBuffer(`${v4.url}/missing`, { ...LIMITS, allowPrivate: true })).toEqual({
      ok: false,
      code: 'http_status',
      reason: 'The server answered HTTP 404.',
      status: 404,
    });
  });

  it('reports a refused connection without internals', async () => {
    const closed = await startLocalHttpServer(() => undefined);
    const link = `${closed.url}/x`;
    await closed.close();
    expect(await safeFetchBuffer(link, { ...LIMITS, allowPrivate: true })).toEqual({
      ok: false,
      code: 'unreachable',
      reason: 'The server refused the connection.',
    });
  });
});
