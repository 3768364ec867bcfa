import { generateKeyPairSync } from 'node:crypto';
import type http from 'node:http';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/clock.js';
import { FCM_SCOPE, FcmProvider, FcmSettingsSchema, type FcmSettings } from '../../../../src/modules/messaging/providers/fcm.provider.js';
import type { MobilePushMessage } from '../../../../src/modules/messaging/providers/provider.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../../helpers/local-http-server.js';
import { Value } from '@sinclair/typebox/value';

/**
 * The FCM provider against a local HTTP peer playing both Google endpoints: the token
 * endpoint verifies the service-account JWT with the public half of a key pair made here,
 * and the send endpoint records the exact request and answers as a test sets.
 */

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

interface Sent {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

let server: LocalHttpServer;
let exchanges: { claims: Record<string, unknown>; header: Record<string, unknown> }[] = [];
let sent: Sent[] = [];
let sendAnswers: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
let tokenAnswer: { status: number; body: unknown } | undefined;
let tokensIssued = 0;

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = await startLocalHttpServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (request.url === '/oauth/token') {
        const form = new URLSearchParams(body);
        expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
        try {
          const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', await importSpki(), {
            algorithms: ['RS256'],
            issuer: 'push@shop-project.iam.gserviceaccount.com',
            audience: `${server.url}/oauth/token`,
            currentDate: new Date(clock.now()),
          });
          exchanges.push({ claims: payload, header: protectedHeader });
        } catch {
          json(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          return;
        }
        if (tokenAnswer) {
          json(response, tokenAnswer.status, tokenAnswer.body);
          return;
        }
        tokensIssued += 1;
        json(response, 200, { access_token: `ya29.token-${tokensIssued}`, expires_in: 3599, token_type: 'Bearer' });
        return;
      }
      sent.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body: JSON.parse(body),
      });
      const answer = sendAnswers.shift() ?? { status: 200, body: { name: `projects/shop-project/messages/${sent.length}` } };
      if (answer.status === -1) return; // hangs
      json(response, answer.status, answer.body, answer.headers);
    })();
  });
});

afterAll(async () => {
  await server.close();
});

async function importSpki() {
  const { importSPKI } = await import('jose');
  return importSPKI(publicKey, 'RS256');
}

let clock: ManualClock;
let provider: FcmProvider;
beforeEach(() => {
  clock = new ManualClock(Date.now());
  provider = new FcmProvider({ clock, timeoutMs: 5000 });
  exchanges = [];
  sent = [];
  sendAnswers = [];
  tokenAnswer = undefined;
  tokensIssued = 0;
});

function settings(): FcmSettings {
  return {
    type: 'service_account',
    project_id: 'shop-project',
    private_key_id: 'k1',
    private_key: privateKey,
    client_email: 'push@shop-project.iam.gserviceaccount.com',
    token_uri: `${server.url}/oauth/token`,
    api_base_url: server.url,
  };
}

const message: MobilePushMessage = {
  token: 'fcm-device-token-1',
  platform: 'android',
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

describe('FcmProvider', () => {
  it('accepts a service-account file pasted whole as its settings', () => {
    expect(Value.Check(FcmSettingsSchema, { ...settings(), client_id: '1234', universe_domain: 'googleapis.com' })).toBe(true);
    expect(Value.Check(FcmSettingsSchema, { ...settings(), project_id: 'x/../other' })).toBe(false);
  });

  it('signs the service-account JWT, exchanges it and sends the exact v1 message with the bearer token', async () => {
    const result = await provider.send(settings(), message, context);
    expect(result).toEqual({ ok: true, providerMessageId: 'projects/shop-project/messages/1' });

    expect(exchanges).toHaveLength(1);
    const { claims, header } = exchanges[0]!;
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'k1' });
    expect(claims.scope).toBe(FCM_SCOPE);
    expect(claims.iat).toBe(Math.floor(clock.now() / 1000));
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);

    expect(sent).toEqual([
      {
        path: '/v1/projects/shop-project/messages:send',
        authorization: 'Bearer ya29.token-1',
        contentType: 'application/json; charset=utf-8',
        body: {
          message: {
            token: 'fcm-device-token-1',
            notification: {
              title: 'Your order is on its way',
              body: 'Order 1042 left the warehouse.',
              image: 'https://shop.example/img/parcel.png',
            },
            data: message.data,
            android: { priority: 'high', notification: { tag: 'msg-abc' } },
            apns: {
              headers: { 'apns-collapse-id': 'msg-abc' },
              payload: { aps: { 'mutable-content': 1 } },
              fcm_options: { image: 'https://shop.example/img/parcel.png' },
            },
          },
        },
      },
    ]);
  });

  it('leaves out the image and the apns block without a picture or an id, and sets android.ttl from ttl_seconds', async () => {
    const { picture: _picture, url: _url, idKey: _idKey, ...plain } = message;
    await provider.send({ ...settings(), ttl_seconds: 600 }, { ...plain, data: { id: 'msg-abc', type: 'transactional' } }, context);
    expect(sent[0]!.body).toEqual({
      message: {
        token: 'fcm-device-token-1',
        notification: { title: 'Your order is on its way', body: 'Order 1042 left the warehouse.' },
        data: { id: 'msg-abc', type: 'transactional' },
        android: { priority: 'high', ttl: '600s' },
      },
    });
  });

  it('exchanges the token once for several sends, concurrent ones too, and again shortly before it expires', async () => {
    await Promise.all([1, 2, 3].map(() => provider.send(settings(), message, context)));
    await provider.send(settings(), message, context);
    expect(exchanges).toHaveLength(1);
    expect(sent.map((s) => s.authorization)).toEqual(Array(4).fill('Bearer ya29.token-1'));

    clock.advance(54 * 60_000); // still more than 5 minutes left of the 3599 s token
    await provider.send(settings(), message, context);
    expect(exchanges).toHaveLength(1);
    clock.advance(60_000); // 4 min 59 s left: renewed before it runs out
    await provider.send(settings(), message, context);
    expect(exchanges).toHaveLength(2);
    expect(sent.at(-1)!.authorization).toBe('Bearer ya29.token-2');
  });

  it('gives up on a send that hangs after the timeout, to retry later', async () => {
    const impatient = new FcmProvider({ clock, timeoutMs: 300 });
    await impatient.send(settings(), message, context); // the token exchange, not timed here
    sendAnswers.push({ status: -1, body: null });
    expect(await impatient.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'FCM: The request did not finish within 300 ms.',
    });
  });

  it('marks an unregistered token dead', async () => {
    sendAnswers.push({
      status: 404,
      body: {
        error: {
          code: 404,
          message: 'Requested entity was not found.',
          status: 'NOT_FOUND',
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
        },
      },
    });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'FCM answered 404 UNREGISTERED: Requested entity was not found.',
    });
  });

  it('marks a malformed token dead, but not another invalid argument', async () => {
    const invalid = (field: string, words: string) => ({
      status: 400,
      body: {
        error: {
          code: 400,
          message: words,
          status: 'INVALID_ARGUMENT',
          details: [
            { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
            { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: words }] },
          ],
        },
      },
    });
    sendAnswers.push(invalid('message.token', 'The registration token is not a valid FCM registration token'));
    sendAnswers.push(invalid('message.data[0].key', 'Invalid data payload key: from'));
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'FCM answered 400 INVALID_ARGUMENT: Invalid data payload key: from',
    });
  });

  it('does not mark tokens dead on a bare 404 (a wrong api_base_url)', async () => {
    sendAnswers.push({ status: 404, body: 'Not Found' });
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'permanent' });
  });

  it('retries a 429 or a 5xx later, after the Retry-After it was given', async () => {
    sendAnswers.push({
      status: 429,
      body: { error: { status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded.' } },
      headers: { 'retry-after': '30' },
    });
    sendAnswers.push({ status: 503, body: { error: { status: 'UNAVAILABLE', message: 'The service is unavailable.' } } });
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'FCM answered 429 RESOURCE_EXHAUSTED: Quota exceeded.',
      retryAfterMs: 30_000,
    });
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'temporary' });
  });

  it('on a 401 gets a fresh token once and sends again; a second 401 is permanent', async () => {
    const unauthenticated = {
      status: 401,
      body: { error: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } },
    };
    sendAnswers.push(unauthenticated);
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: true });
    expect(sent.map((s) => s.authorization)).toEqual(['Bearer ya29.token-1', 'Bearer ya29.token-2']);

    sendAnswers.push(unauthenticated, unauthenticated);
    expect(await provider.send(settings(), message, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'FCM answered 401 UNAUTHENTICATED: Request had invalid authentication credentials.',
    });
    expect(exchanges).toHaveLength(3);
  });

  it('reports a refused token exchange as permanent with the endpoint’s words, and sends nothing', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const result = await provider.send({ ...settings(), private_key: other.privateKey }, message, context);
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'FCM token endpoint answered 400 invalid_grant: Invalid JWT Signature.',
    });
    expect(sent).toHaveLength(0);
  });

  it('retries later when the token endpoint is down', async () => {
    tokenAnswer = { status: 503, body: { error: 'backend_error' } };
    expect(await provider.send(settings(), message, context)).toMatchObject({ ok: false, kind: 'temporary' });
  });

  it('refuses a key that is not PKCS#8 RSA without calling anyone', async () => {
    const result = await provider.send(
      { ...settings(), private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' },
      message,
      context,
    );
    expect(result).toMatchObject({ ok: false, kind: 'permanent' });
    expect(exchanges).toHaveLength(0);
  });

  it('reads a key pasted with literal \\n escapes, as it sits in a JSON string', async () => {
    const escaped = privateKey.trim().split('\n').join('\\n');
    expect(escaped).not.toContain('\n');
    expect(await provider.send({ ...settings(), private_key: escaped }, message, context)).toMatchObject({ ok: true });
  });

  it('goes through the private-address guard: a loopback peer is refused unless allowed', async () => {
    const result = await provider.send(settings(), message, { allowPrivate: false });
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'FCM token endpoint: The link points to a local or private network address, which is not allowed.',
    });
  });
});
