import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { formatSecret } from '../../../src/modules/webhooks/domain/signing.js';
import { postSigned } from '../../../src/modules/webhooks/webhook-request.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';

/**
 * The signed POST against a real local receiver (docs/webhooks.md, "Verifying a
 * delivery"): the receiver below checks the request as a Standard Webhooks library does,
 * written from the specification, not from our signing code.
 */

interface Received {
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A receiver's check: a fresh timestamp and one v1 signature that matches under the secret, compared in constant time. */
function verify(secret: string, received: Received, nowSeconds: number): boolean {
  const id = String(received.headers['webhook-id']);
  const timestamp = Number(received.headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest();
  return String(received.headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, value] = entry.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}

describe('postSigned against a local receiver', () => {
  const received: Received[] = [];
  let server: LocalHttpServer;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const secret = formatSecret(crypto.randomBytes(32));
  const options = { clock, allowPrivate: ['127.0.0.1'] };

  beforeAll(async () => {
    server = await startLocalHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          method: request.method ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (request.url === '/slow') return; // never answers
        if (request.url === '/moved') response.writeHead(301, { location: '/elsewhere' }).end();
        else if (request.url === '/busy') response.writeHead(503, { 'retry-after': '120' }).end();
        else if (request.url === '/big') response.writeHead(200).end('x'.repeat(100 * 1024));
        else response.writeHead(204).end();
      });
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('delivers a body the receiver verifies, with the Standard Webhooks headers', async () => {
    const body = '{"type":"message.sent","timestamp":"2026-01-15T12:00:00.000Z","data":{"address":"ü@example.org"}}';
    const answer = await postSigned({ url: `${server.url}/hook?x=1`, secrets: [secret], id: 'msg_abc', body }, options);
    expect(answer).toEqual({ ok: true, status: 204 });
    const got = received.at(-1)!;
    expect(got).toMatchObject({ path: '/hook?x=1', method: 'POST', body });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe('msg_abc');
    expect(got.headers['webhook-timestamp']).toBe(String(clock.now() / 1000));
    expect(verify(secret, got, clock.now() / 1000)).toBe(true);
    expect(verify(formatSecret(crypto.randomBytes(32)), got, clock.now() / 1000)).toBe(false);
    expect(verify(secret, { ...got, body: `${body} ` }, clock.now() / 1000)).toBe(false);
    expect(verify(secret, got, clock.now() / 1000 + 3600)).toBe(false);
  });

  it('signs with every secret given, so a receiver holding either one verifies', async () => {
    const old = formatSecret(crypto.randomBytes(32));
    await postSigned({ url: `${server.url}/hook`, secrets: [secret, old], id: 'msg_two', body: '{}' }, options);
    const got = received.at(-1)!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(secret, got, clock.now() / 1000)).toBe(true);
    expect(verify(old, got, clock.now() / 1000)).toBe(true);
  });

  it('refuses the loopback address when it is not allowed, before connecting', async () => {
    const before = received.length;
    const answer = await postSigned(
      { url: `${server.url}/hook`, secrets: [secret], id: 'msg_no', body: '{}' },
      { clock, allowPrivate: false },
    );
    expect(answer).toMatchObject({ ok: false, code: 'refused_address' });
    expect(received.length).toBe(before);
  });

  it('answers the status of a redirect without following it, and a Retry-After in milliseconds', async () => {
    expect(await postSigned({ url: `${server.url}/moved`, secrets: [secret], id: 'msg_r', body: '{}' }, options)).toEqual({
      ok: true,
      status: 301,
    });
    expect(received.some((r) => r.path === '/elsewhere')).toBe(false);
    expect(await postSigned({ url: `${server.url}/busy`, secrets: [secret], id: 'msg_b', body: '{}' }, options)).toEqual({
      ok: true,
      status: 503,
      retryAfterMs: 120_000,
    });
  });

  it('bounds the attempt in time and the answer in size', async () => {
    const slow = await postSigned(
      { url: `${server.url}/slow`, secrets: [secret], id: 'msg_s', body: '{}' },
      { ...options, timeoutMs: 200 },
    );
    expect(slow).toEqual({ ok: false, code: 'timeout', reason: 'The request did not finish within 200 ms.' });
    expect(await postSigned({ url: `${server.url}/big`, secrets: [secret], id: 'msg_g', body: '{}' }, options)).toMatchObject({
      ok: false,
      code: 'too_large',
    });
  });
});
