import { generateKeyPairSync } from 'node:crypto';
import http2, { type Http2SecureServer, type IncomingHttpHeaders, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/clock.js';
import { ApnsProvider, type ApnsSettings } from '../../../../src/modules/messaging/providers/apns.provider.js';
import type { MobilePushMessage } from '../../../../src/modules/messaging/providers/provider.js';
import { selfSignedCert } from '../../../helpers/self-signed-cert.js';
import { waitFor } from '../../../helpers/wait.js';

/**
 * The APNs provider against a local HTTP/2 TLS server standing in for Apple: it verifies
 * the ES256 provider token with the public half of a key made here, records the path,
 * headers and payload of every notification, and answers as a test sets.
 */

const TEAM = 'TEAM123456';
const KEY_ID = 'KEY1234567';
const apnsKey = generateKeyPairSync('ec', {
  namedCurve: 'prime256v1',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const tls = selfSignedCert();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  payload: unknown;
  iat: number;
  token: string;
}

let server: Http2SecureServer;
let port: number;
let serverSessions: ServerHttp2Session[] = [];
let received: Received[] = [];
let answers: { status: number; reason?: string }[] = [];
let clock: ManualClock;
let provider: ApnsProvider;

beforeAll(async () => {
  const publicKey = await importSPKI(apnsKey.publicKey, 'ES256');
  server = http2.createSecureServer({ key: tls.key, cert: tls.cert });
  server.on('session', (session) => serverSessions.push(session));
  server.on('stream', (stream, headers) => {
    // A stream the peer refuses errors on its own side too.
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      void (async () => {
        const token = String(headers.authorization ?? '').replace(/^bearer /, '');
        try {
          const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
            algorithms: ['ES256'],
            issuer: TEAM,
            currentDate: new Date(clock.now()),
          });
          if (protectedHeader.kid !== KEY_ID) throw new Error('kid');
          received.push({
            path: String(headers[':path']),
            headers,
            payload: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            iat: Number(payload.iat),
            token,
          });
        } catch {
          stream.respond({ ':status': 403, 'content-type': 'application/json' });
          stream.end(JSON.stringify({ reason: 'InvalidProviderToken' }));
          return;
        }
        const answer = answers.shift() ?? { status: 200 };
        if (answer.status === -1) return; // hangs
        if (answer.status === 0) {
          stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
          return;
        }
        if (answer.status === 200) {
          stream.respond({ ':status': 200, 'apns-id': `00000000-0000-0000-0000-00000000000${received.length}` });
          stream.end();
        } else {
          stream.respond({ ':status': answer.status, 'content-type': 'application/json' });
          stream.end(JSON.stringify({ reason: answer.reason }));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const session of serverSessions) session.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  clock = new ManualClock(Date.now());
  provider = new ApnsProvider({ clock, ca: tls.cert, timeoutMs: 5000 });
  received = [];
  answers = [];
  serverSessions = [];
});

afterEach(async () => {
  await provider.close();
});

function settings(): ApnsSettings {
  return {
    team_id: TEAM,
    key_id: KEY_ID,
    private_key: apnsKey.privateKey,
    bundle_id: 'com.example.shop',
    api_url: `https://localhost:${port}`,
  };
}

const token = 'a1'.repeat(32);
const message: MobilePushMessage = {
  token,
  platform: 'ios',
  title: 'Your order is on its way',
  body: 'Order 1042 left the warehouse.',
  url: 'https://shop.example/orders/1042',
  picture: 'https://shop.example/img/parcel.png',
  data: {
    id: 'msg-abc',
    type: 'transactional',
    shop_id: 'shop-1',
    title: 'Your order is on its way',
    body: 'Order 1042 left the warehouse.',
    image: 'https://shop.example/img/parcel.png',
    event: '{"type":"web","uri":"https://shop.example/orders/1042"}',
  },
  idKey: 'msg-abc',
};
const context = { allowPrivate: true } as const;

describe('ApnsProvider', () => {
  it('posts the alert to /3/device/<token> with the APNs headers, a verified ES256 token and the exact payload', async () => {
    const result = await provider.send(settings(), message, context);
    expect(result).toEqual({ ok: true, providerMessageId: '00000000-0000-0000-0000-000000000001' });
    expect(received).toHaveLength(1);
    const { path, headers, payload, iat } = received[0]!;
    expect(path).toBe(`/3/device/${token}`);
    expect(headers[':method']).toBe('POST');
    expect(headers).toMatchObject({
      'apns-topic': 'com.example.shop',
      'apns-push-type': 'alert',
      'apns-priority': '10',
      'apns-expiration': String(Math.floor(clock.now() / 1000) + 86_400),
      'apns-collapse-id': 'msg-abc',
      'content-type': 'application/json',
    });
    expect(iat).toBe(Math.floor(clock.now() / 1000));
    expect(decodeProtectedHeader(received[0]!.token)).toEqual({ alg: 'ES256', kid: KEY_ID });
    expect(payload).toEqual({
      aps: { alert: { title: 'Your order is on its way', body: 'Order 1042 left the warehouse.' }, 'mutable-content': 1 },
      ...message.data,
      'gcm.message_id': 'msg-abc',
    });
  });

  it('sends no mutable-content without a picture, no collapse id or gcm.message_id without an id, and never lets a data key replace aps', async () => {
    const { picture: _p, url: _u, idKey: _i, ...plain } = message;
    await provider.send({ ...settings(), ttl_seconds: 0 }, { ...plain, data: { id: 'msg-abc', type: 'transactional', aps: 'x' } }, context);
    expect(received[0]!.payload).toEqual({
      aps: { alert: { title: 'Your order is on its way', body: 'Order 1042 left the warehouse.' } },
      id: 'msg-abc',
      type: 'transactional',
    });
    expect(received[0]!.headers['apns-expiration']).toBe('0');
    expect(received[0]!.headers['apns-collapse-id']).toBeUndefined();
  });

  it('reuses one HTTP/2 session and one provider token across sends, and signs anew only after 40 minutes', async () => {
    await Promise.all([1, 2, 3].map(() => provider.send(settings(), message, context)));
    clock.advance(39 * 60_000);
    await provider.send(settings(), message, context);
    expect(serverSessions).toHaveLength(1);
    expect(provider.sessionsOpened).toBe(1);
    expect(new Set(received.map((r) => r.token)).size).toBe(1);

    clock.advance(2 * 60_000);
    await provider.send(settings(), message, context);
    expect(new Set(received.map((r) => r.token)).size).toBe(2);
    expect(received.at(-1)!.iat).toBe(Math.floor(clock.now() / 1000));
    expect(serverSessions).toHaveLength(1);
  });

  it('opens a new session after the server sends GOAWAY and closes the old one', async () => {
    await provider.send(settings(), message, context);
    serverSessions[0]!.close();
    await waitFor(() => provider.sessionsOpen === 0, { what: 'the client to drop the closed session' });
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: true });
    expect(serverSessions).toHaveLength(2);
    expect(provider.sessionsOpened).toBe(2);
  });

  it('sends a stream the server refused again on a new session, once', async () => {
    answers.push({ status: 0 });
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: true });
    expect(received).toHaveLength(2);
    expect(serverSessions).toHaveLength(2);

    answers.push({ status: 0 }, { status: 0 });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'APNs: The push service closed the connection before taking the request.',
    });
    expect(received).toHaveLength(4);
  });

  it('gives up on a service that hangs after the timeout, to retry later', async () => {
    const impatient = new ApnsProvider({ clock, ca: tls.cert, timeoutMs: 300 });
    answers.push({ status: -1 });
    try {
      expect(await impatient.send(settings(), message, context)).toEqual({
        ok: false,
        kind: 'temporary',
        message: 'APNs: The request did not finish within 300 ms.',
      });
    } finally {
      await impatient.close();
    }
  });

  it('marks an unregistered or bad device token dead', async () => {
    answers.push({ status: 410, reason: 'Unregistered' }, { status: 400, reason: 'BadDeviceToken' });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'APNs answered 410 Unregistered',
    });
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'dead_address' });
  });

  it('retries later on TooManyRequests, 500 and 503', async () => {
    answers.push(
      { status: 429, reason: 'TooManyRequests' },
      { status: 500, reason: 'InternalServerError' },
      { status: 503, reason: 'ServiceUnavailable' },
    );
    for (let i = 0; i < 3; i += 1) {
      expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'temporary' });
    }
  });

  it('on ExpiredProviderToken retries later with a newly signed token', async () => {
    answers.push({ status: 403, reason: 'ExpiredProviderToken' });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'APNs answered 403 ExpiredProviderToken',
    });
    clock.advance(1000);
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: true });
    expect(received[0]!.token).not.toBe(received[1]!.token);
  });

  it('fails permanently on other refusals: a topic the token is not for, a key Apple does not know', async () => {
    answers.push({ status: 400, reason: 'DeviceTokenNotForTopic' });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'APNs answered 400 DeviceTokenNotForTopic',
    });
    const otherKey = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(await provider.send({ ...settings(), private_key: otherKey.privateKey }, message, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'APNs answered 403 InvalidProviderToken',
    });
  });

  it('refuses without a connection: a token that is not hex, a payload over 4 KB, a key that is not P-256', async () => {
    expect(await provider.send(settings(), { ...message, token: '../../x' }, context)).toMatchObject({ ok: false, kind: 'permanent' });
    expect(await provider.send(settings(), { ...message, body: 'x'.repeat(5000) }, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'APNs: the notification is larger than the 4096 bytes Apple accepts.',
    });
    const rsa = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(await provider.send({ ...settings(), private_key: rsa.privateKey }, message, context)).toMatchObject({
      ok: false,
      kind: 'permanent',
    });
    expect(provider.sessionsOpened).toBe(0);
  });

  it('goes through the private-address guard, and retries later when the service cannot be reached', async () => {
    expect(await provider.send(settings(), message, { allowPrivate: false })).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'APNs: The link points to a local or private network address, which is not allowed.',
    });
    const closed = await new Promise<number>((resolve) => {
      const probe = http2.createSecureServer({ key: tls.key, cert: tls.cert });
      probe.listen(0, 'localhost', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    expect(await provider.send({ ...settings(), api_url: `https://localhost:${closed}` }, message, context)).toMatchObject({
      ok: false,
      kind: 'temporary',
    });
  });

  it('does not trust a self-signed peer without the ca option', async () => {
    const strict = new ApnsProvider({ clock });
    try {
      expect(await strict.send(settings(), message, context)).toEqual({
        ok: false,
        kind: 'temporary',
        message: "APNs: The server's TLS certificate is not valid.",
      });
    } finally {
      await strict.close();
    }
  });
});
