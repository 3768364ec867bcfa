import http2, { type Http2SecureServer, type IncomingHttpHeaders, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { ApnsProvider } from '../../src/modules/messaging/providers/apns.provider.js';
import { apnsAccepts } from '../../src/modules/messaging/providers/mobile-push-routing.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { startLocalHttpServer, type LocalHttpServer } from '../helpers/local-http-server.js';
import { selfSignedCert } from '../helpers/self-signed-cert.js';
import { iosSdkTrack, readPush, remoteMessageFromApns, remoteMessageFromFcm } from './rn-sdk-push.js';
import { pushTokenRequest, setProfileRequest, trackPushRequest, type SdkState } from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * Issue 33 part 1 (contract-notes "Beyond interface.md", last bullet; docs/mobile-sdk.md
 * "Push notifications"), on both databases: a transactional push goes out through the
 * shipped FCM and APNs vendors to local peers standing in for Google (HTTP) and Apple
 * (HTTP/2), to devices that registered as the React Native SDK does. Each payload that
 * reached its peer is read as the SDK reads it (rn-sdk-push.ts): every field it takes is
 * there, and the /track/delivered, opened and clicked calls it then makes with what it
 * read are answered and change the message's statistics.
 */

const rsa = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const p256 = generateKeyPairSync('ec', {
  namedCurve: 'prime256v1',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const tls = selfSignedCert();

const TEMPLATE = {
  title: 'Order {{ order_id }} shipped',
  body: 'It leaves the warehouse today.',
  url: 'https://shop.example/orders/{{ order_id }}?from=push',
  icon: 'https://shop.example/icon.png',
  picture: 'https://shop.example/parcel.png',
};
const FCM_TOKEN = 'dGVzdC10b2tlbg:APA91bHk3nYx0PqR-7s_sdk';
// What getAPNSToken gives: hexadecimal, in capitals, so that the SDK registers it as ios.
const APNS_TOKEN = 'A1B2C3D4E5F60718'.repeat(4);

interface FcmSent {
  readonly body: { message: Record<string, unknown> };
  readonly name: string;
}
interface ApnsSent {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly payload: Record<string, unknown>;
}

let fcmPeer: LocalHttpServer;
let apnsPeer: Http2SecureServer;
let apnsPort: number;
const apnsSessions: ServerHttp2Session[] = [];
const fcmSent: FcmSent[] = [];
const apnsSent: ApnsSent[] = [];

function collect(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

beforeAll(async () => {
  fcmPeer = await startLocalHttpServer((request, response) => {
    void collect(request).then((text) => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/token') {
        response.end(JSON.stringify({ access_token: 'ya29.contract', expires_in: 3599, token_type: 'Bearer' }));
        return;
      }
      const name = `projects/shop-app/messages/0:${fcmSent.length + 1}`;
      fcmSent.push({ body: JSON.parse(text) as FcmSent['body'], name });
      response.end(JSON.stringify({ name }));
    });
  });
  apnsPeer = http2.createSecureServer({ key: tls.key, cert: tls.cert });
  apnsPeer.on('session', (session) => apnsSessions.push(session));
  apnsPeer.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    void collect(stream).then((text) => {
      apnsSent.push({ path: String(headers[':path']), headers, payload: JSON.parse(text) as Record<string, unknown> });
      stream.respond({ ':status': 200, 'apns-id': '7a1b2c3d-0000-4000-8000-00000000000' + String(apnsSent.length) });
      stream.end();
    });
  });
  await new Promise<void>((resolve) => apnsPeer.listen(0, '127.0.0.1', resolve));
  apnsPort = (apnsPeer.address() as AddressInfo).port;
});

afterAll(async () => {
  await fcmPeer.close();
  for (const session of apnsSessions) session.destroy();
  await new Promise<void>((resolve) => apnsPeer.close(() => resolve()));
});

describe.each(TEST_DIALECTS)('mobile push as the SDK reads it, on %s', (dialect) => {
  let t: TestApp;
  let runner: JobRunner;
  let shopId: string;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { PATRON_SECRET_KEY: 'b'.repeat(64), PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' } });
    // The shipped APNs vendor, trusting the peer's self-signed certificate.
    t.app.services.messagingProviders.replace(new ApnsProvider({ clock: t.clock, ca: tls.cert }), { accepts: apnsAccepts });
    runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    ({ shopId, secret } = await createShopFixture(t.app.services));
    // Both vendors at once, one object each: each token goes to the vendor of its form.
    await expectStatus(
      admin('/channels/mobile_push', {
        fcm: {
          project_id: 'shop-app',
          client_email: 'push@shop-app.iam.gserviceaccount.com',
          private_key: rsa.privateKey,
          token_uri: `${fcmPeer.url}/token`,
          api_base_url: fcmPeer.url,
        },
        apns: {
          team_id: 'TEAM123456',
          key_id: 'KEY1234567',
          private_key: p256.privateKey,
          bundle_id: 'com.example.shop',
          api_url: `https://127.0.0.1:${apnsPort}`,
        },
      }),
    );
    await expectStatus(admin('/mailings/transactional/shipped', { mobile_push: TEMPLATE }));
  });

  afterAll(async () => {
    await t.close();
  });

  function admin(path: string, payload: object): Promise<{ statusCode: number; body: string }> {
    return t.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, payload });
  }

  async function expectStatus(response: Promise<{ statusCode: number; body: string }>, status = 200): Promise<void> {
    const r = await response;
    expect(r.statusCode, r.body).toBe(status);
  }

  async function sdk(request: InjectOptions): Promise<unknown> {
    const r = await t.app.inject(request);
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  }

  /** A device that started the SDK, set its email and sent its push token as the SDK does. */
  async function device(email: string, token: string, platform: 'android' | 'ios'): Promise<SdkState> {
    const { did, sid } = await initDevice(t, shopId);
    const state = { shopId, did, sid };
    await sdk(setProfileRequest(state, { email }));
    expect(await sdk(pushTokenRequest(state, token, platform))).toMatchObject({ status: 'success' });
    return state;
  }

  async function transact(email: string, orderId: string): Promise<string> {
    const r = await t.app.inject({
      method: 'POST',
      url: '/transact',
      payload: { shop_id: shopId, shop_secret: secret, code: 'shipped', email, variables: { order_id: orderId } },
    });
    expect(r.statusCode, r.body).toBe(200);
    await runner.runDue();
    return r.json<{ payload: { code: string } }>().payload.code;
  }

  async function outcomes(email: string, code: string) {
    const row = await t.db.db
      .selectFrom('messaging_deliveries')
      .select(['status', 'error', 'delivered_at'])
      .where('shop_id', '=', shopId)
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    const r = await t.app.inject({
      method: 'GET',
      url: '/notifications',
      query: { shop_id: shopId, shop_secret: secret, email, channel: 'mobile_push' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const message = r
      .json<{ payload: { messages: { code: string; statistics: Record<string, boolean> }[] } }>()
      .payload.messages.find((m) => m.code === code);
    return {
      status: row.status,
      error: row.error,
      delivered: row.delivered_at !== null,
      opened: message?.statistics.opened,
      clicked: message?.statistics.clicked,
    };
  }

  it('FCM: the data carries every field the SDK reads, and its delivered, opened and clicked reports count', async () => {
    const state = await device('android@example.org', FCM_TOKEN, 'android');
    const code = await transact('android@example.org', '1042');
    expect(await outcomes('android@example.org', code)).toMatchObject({
      status: 'sent',
      error: null,
      delivered: false,
      opened: false,
      clicked: false,
    });

    const sent = fcmSent.at(-1)!;
    expect(sent.body.message.token).toBe(FCM_TOKEN);
    const data = sent.body.message.data as Record<string, unknown>;
    // FCM takes string values only.
    expect(Object.values(data).every((value) => typeof value === 'string')).toBe(true);
    const read = readPush(remoteMessageFromFcm(sent.body.message, sent.name));
    expect(read).toEqual({
      messageId: sent.name,
      shopId,
      track: { code, type: 'transactional' },
      shown: { title: 'Order 1042 shipped', body: 'It leaves the warehouse today.', icon: TEMPLATE.icon, image: TEMPLATE.picture },
      target: { type: 'web', uri: 'https://shop.example/orders/1042?from=push' },
    });
    // Apps that show FCM's own notification still get it.
    expect(sent.body.message.notification).toEqual({
      title: 'Order 1042 shipped',
      body: 'It leaves the warehouse today.',
      image: TEMPLATE.picture,
    });

    // The SDK's reports, built from what it read.
    expect(await sdk(trackPushRequest(state, 'delivered', read.track))).toEqual({ status: 'success' });
    expect(await outcomes('android@example.org', code)).toMatchObject({ delivered: true, opened: false, clicked: false });
    expect(await sdk(trackPushRequest(state, 'opened', read.track))).toEqual({ status: 'success' });
    expect(await outcomes('android@example.org', code)).toMatchObject({ delivered: true, opened: true, clicked: false });
    expect(await sdk(trackPushRequest(state, 'clicked', read.track))).toEqual({ status: 'success' });
    expect(await outcomes('android@example.org', code)).toMatchObject({ delivered: true, opened: true, clicked: true });
  });

  it('APNs: React Native Firebase hands the payload to the SDK with every field it reads, and the reports count', async () => {
    const state = await device('ios@example.org', APNS_TOKEN, 'ios');
    const code = await transact('ios@example.org', '7');
    expect(await outcomes('ios@example.org', code)).toMatchObject({ status: 'sent', error: null });

    const sent = apnsSent.at(-1)!;
    expect(sent.path).toBe(`/3/device/${APNS_TOKEN}`);
    // Apple's alert, which iOS shows by itself and the native SDK reads.
    expect(sent.payload.aps).toEqual({ alert: { title: 'Order 7 shipped', body: 'It leaves the warehouse today.' }, 'mutable-content': 1 });
    const remote = remoteMessageFromApns(sent.payload);
    expect(remote, 'React Native Firebase passes an iOS notification on only with gcm.message_id').toBeDefined();
    expect(readPush(remote!)).toEqual({
      messageId: code,
      shopId,
      track: { code, type: 'transactional' },
      shown: { title: 'Order 7 shipped', body: 'It leaves the warehouse today.', icon: TEMPLATE.icon, image: TEMPLATE.picture },
      target: { type: 'web', uri: 'https://shop.example/orders/7?from=push' },
    });

    const read = readPush(remote!);
    expect(await sdk(trackPushRequest(state, 'delivered', read.track))).toEqual({ status: 'success' });
    expect(await sdk(trackPushRequest(state, 'opened', read.track))).toEqual({ status: 'success' });
    expect(await outcomes('ios@example.org', code)).toMatchObject({ delivered: true, opened: true, clicked: false });
    // The native iOS SDK reports the tap with the event's type in place of the message type.
    const native = iosSdkTrack(sent.payload);
    expect(native).toEqual({ type: 'web', code });
    expect(await sdk(trackPushRequest(state, 'clicked', native!))).toEqual({ status: 'success' });
    expect(await outcomes('ios@example.org', code)).toMatchObject({ delivered: true, opened: true, clicked: true });
  });

  it('leaves the event out when the template has no link, so the SDK opens nothing', async () => {
    await expectStatus(admin('/mailings/transactional/plain', { mobile_push: { title: 'Hello', body: 'No link here.' } }));
    await device('plain@example.org', `${FCM_TOKEN}-plain`, 'android');
    const r = await t.app.inject({
      method: 'POST',
      url: '/transact',
      payload: { shop_id: shopId, shop_secret: secret, code: 'plain', email: 'plain@example.org' },
    });
    expect(r.statusCode, r.body).toBe(200);
    await runner.runDue();
    const sent = fcmSent.at(-1)!;
    const read = readPush(remoteMessageFromFcm(sent.body.message, sent.name));
    expect(read.target).toBeUndefined();
    expect(read.shown).toEqual({ title: 'Hello', body: 'No link here.', icon: undefined, image: undefined });
    expect(read.track.code).toBe(r.json<{ payload: { code: string } }>().payload.code);
  });
});
