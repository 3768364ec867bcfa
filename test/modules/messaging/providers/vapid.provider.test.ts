import type http from 'node:http';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebPushMessage } from '../../../../src/modules/messaging/providers/provider.js';
import {
  generateVapidKeys,
  MAX_WEB_PUSH_PAYLOAD_BYTES,
  VapidProvider,
  VapidSettingsSchema,
  type VapidSettings,
  webPushPayload,
} from '../../../../src/modules/messaging/providers/vapid.provider.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../../helpers/local-http-server.js';
import { browserSubscriptionKeys, decryptAes128gcm, verifyVapid } from '../../../helpers/web-push-peer.js';

/**
 * The VAPID provider against a local HTTP peer acting as the push service: it checks the
 * VAPID JWT and decrypts the aes128gcm body with the subscription's private key, so the
 * test sees exactly the JSON a browser's service worker would get.
 */

interface Delivered {
  path: string;
  headers: http.IncomingHttpHeaders;
  vapidKey: string;
  subject: unknown;
  json: unknown;
}

let server: LocalHttpServer;
let delivered: Delivered[] = [];
let answers: { status: number; body?: string; headers?: Record<string, string> }[] = [];
const browser = browserSubscriptionKeys();
const shopKeys = generateVapidKeys();

beforeAll(async () => {
  server = await startLocalHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        // Push services take one record of at most 4096 bytes, header included.
        if (Buffer.concat(chunks).length > 4096) {
          response.writeHead(413).end();
          return;
        }
        try {
          const { k, claims } = await verifyVapid(request.headers.authorization, server.url);
          const json: unknown = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), browser));
          delivered.push({ path: request.url ?? '', headers: request.headers, vapidKey: k, subject: claims.sub, json });
        } catch (error) {
          response.writeHead(400, { 'content-type': 'text/plain' }).end(`peer refused: ${(error as Error).message}`);
          return;
        }
        const answer = answers.shift() ?? { status: 201, headers: { location: `${server.url}/m/${delivered.length}` } };
        response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      })();
    });
  });
});

afterAll(async () => {
  await server.close();
});

let provider: VapidProvider;
beforeEach(() => {
  provider = new VapidProvider({ allowHttpEndpoints: true, timeoutMs: 5000 });
  delivered = [];
  answers = [];
});

function settings(): VapidSettings {
  return { ...shopKeys, subject: 'mailto:push@shop.example' };
}

function message(overrides: Partial<WebPushMessage> = {}): WebPushMessage {
  return {
    subscription: { endpoint: `${server.url}/push/sub-1`, keys: { p256dh: browser.p256dh, auth: browser.auth } },
    title: 'Your order is on its way',
    body: 'Order 1042 left the warehouse — track it.',
    url: 'https://shop.example/orders/1042',
    icon: 'https://shop.example/icon.png',
    picture: 'https://shop.example/img/parcel.png',
    data: { code: 'msg-abc', type: 'transactional' },
    idKey: 'msg-abc',
    ...overrides,
  };
}

const context = { allowPrivate: true } as const;

describe('VapidProvider', () => {
  it('generates a key pair its own settings schema accepts', () => {
    const keys = generateVapidKeys();
    expect(Value.Check(VapidSettingsSchema, { ...keys, subject: 'https://shop.example' })).toBe(true);
    expect(keys.vapid_public_key).not.toBe(shopKeys.vapid_public_key);
  });

  it('delivers an encrypted payload the browser decrypts to the exact JSON, with a VAPID JWT of the shop’s key', async () => {
    const result = await provider.send(settings(), message(), context);
    expect(result).toEqual({ ok: true, providerMessageId: `${server.url}/m/1` });
    expect(delivered).toHaveLength(1);
    const got = delivered[0]!;
    expect(got.path).toBe('/push/sub-1');
    expect(got.vapidKey).toBe(shopKeys.vapid_public_key);
    expect(got.subject).toBe('mailto:push@shop.example');
    expect(got.headers).toMatchObject({
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
      ttl: '86400',
      urgency: 'normal',
      topic: 'msg-abc',
    });
    expect(got.json).toEqual({
      title: 'Your order is on its way',
      body: 'Order 1042 left the warehouse — track it.',
      url: 'https://shop.example/orders/1042',
      icon: 'https://shop.example/icon.png',
      image: 'https://shop.example/img/parcel.png',
      data: { code: 'msg-abc', type: 'transactional' },
    });
  });

  it('leaves absent fields out of the payload and sends the TTL and urgency of the settings', async () => {
    await provider.send(
      { ...settings(), ttl_seconds: 60, urgency: 'high' },
      message({ url: undefined, icon: undefined, picture: undefined }),
      context,
    );
    expect(delivered[0]!.json).toEqual({
      title: 'Your order is on its way',
      body: 'Order 1042 left the warehouse — track it.',
      data: { code: 'msg-abc', type: 'transactional' },
    });
    expect(delivered[0]!.headers).toMatchObject({ ttl: '60', urgency: 'high' });
  });

  it('sends no Topic for an id a Topic header cannot carry', async () => {
    await provider.send(settings(), message({ idKey: 'a.b' }), context);
    await provider.send(settings(), message({ idKey: 'x'.repeat(33) }), context);
    await provider.send(settings(), message({ idKey: undefined }), context);
    expect(delivered.map((d) => d.headers.topic)).toEqual([undefined, undefined, undefined]);
  });

  it('marks a subscription dead on 404 and 410', async () => {
    answers.push({ status: 410, body: 'push subscription has unsubscribed or expired.', headers: { 'content-type': 'text/plain' } });
    answers.push({ status: 404 });
    expect(await provider.send(settings(), message(), context)).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'Push service answered 410: push subscription has unsubscribed or expired.',
    });
    expect(await provider.send(settings(), message(), context)).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'Push service answered 404',
    });
  });

  it('retries later on 429 and 5xx, after the Retry-After it was given', async () => {
    answers.push({ status: 429, headers: { 'retry-after': '120' } }, { status: 502 });
    expect(await provider.send(settings(), message(), context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'Push service answered 429',
      retryAfterMs: 120_000,
    });
    expect(await provider.send(settings(), message(), context)).toMatchObject({ ok: false, kind: 'temporary' });
  });

  it('fails permanently on 413 and on a refused VAPID key, with the service’s words', async () => {
    answers.push({ status: 413 });
    expect(await provider.send(settings(), message(), context)).toMatchObject({ ok: false, kind: 'permanent' });
    answers.push({
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 403, errno: 109, error: 'Forbidden', message: 'Invalid VAPID key.' }),
    });
    expect(await provider.send(settings(), message(), context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'Push service answered 403: Invalid VAPID key.',
    });
  });

  it('delivers a payload of exactly the largest size one record holds', async () => {
    const overhead = JSON.stringify(webPushPayload(message({ body: '' }))).length;
    const body = 'x'.repeat(MAX_WEB_PUSH_PAYLOAD_BYTES - overhead);
    expect(await provider.send(settings(), message({ body }), context)).toMatchObject({ ok: true });
    expect(delivered[0]!.json).toMatchObject({ body });
  });

  it('refuses a payload over one record without sending it', async () => {
    const before = server.requests.length;
    const result = await provider.send(settings(), message({ body: 'x'.repeat(4000) }), context);
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'Web push: the notification is larger than the 3993 bytes a push service takes.',
    });
    expect(server.requests.length).toBe(before);
  });

  it('marks a subscription dead that can never be delivered: not https, keys not on the curve', async () => {
    const strict = new VapidProvider();
    expect(await strict.send(settings(), message(), context)).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'Web push: the subscription endpoint is not an https URL.',
    });
    const bad = Buffer.alloc(65, 7);
    bad[0] = 4;
    const badKeys = { p256dh: bad.toString('base64url'), auth: browser.auth };
    expect(
      await provider.send(settings(), message({ subscription: { endpoint: `${server.url}/push/x`, keys: badKeys } }), context),
    ).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(delivered).toHaveLength(0);
  });

  it('goes through the private-address guard: a loopback endpoint is refused unless allowed', async () => {
    expect(await provider.send(settings(), message(), { allowPrivate: false })).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'Web push: The link points to a local or private network address, which is not allowed.',
    });
    expect(delivered).toHaveLength(0);
  });
});
