import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppleWalletProvider } from '../../../../src/modules/messaging/providers/apple-wallet.provider.js';
import type { AppleWalletSettings } from '../../../../src/modules/messaging/providers/apple-wallet.settings.js';
import { makePassCertificates, type PassCertificates } from '../../../helpers/pass-certificates.js';

const PASS_TYPE = 'pass.org.patron.test';
const PUSH_TOKEN = 'a1b2c3d4'.repeat(8);

interface Received {
  readonly path: string;
  readonly method: string;
  readonly topic: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
  readonly clientCertSubject: string | undefined;
}

/**
 * A local APNs peer: HTTP/2 over TLS that requires a client certificate signed by the
 * test CA (as APNs requires the pass type certificate), records each request and
 * answers with the status the test sets.
 */
describe('the apple_wallet provider against a local HTTP/2 peer', () => {
  let certs: PassCertificates;
  let server: http2.Http2SecureServer;
  let port: number;
  let received: Received[];
  let answer: { status: number; body?: string; apnsId?: string };
  let sessions: number;
  let provider: AppleWalletProvider;

  beforeAll(async () => {
    certs = makePassCertificates(PASS_TYPE, 'ABCDE12345');
    server = http2.createSecureServer({
      key: certs.serverKey,
      cert: certs.serverCertificate,
      ca: certs.wwdrCertificate,
      requestCert: true,
      rejectUnauthorized: true,
    });
    server.on('session', () => {
      sessions += 1;
    });
    server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate();
        received.push({
          path: String(headers[':path']),
          method: String(headers[':method']),
          topic: headers['apns-topic'] as string | undefined,
          contentType: headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
          clientCertSubject: peer?.subject?.UID as string | undefined,
        });
        stream.respond({ ':status': answer.status, ...(answer.apnsId ? { 'apns-id': answer.apnsId } : {}) });
        stream.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    certs.cleanup();
  });
  beforeEach(() => {
    received = [];
    sessions = 0;
    answer = { status: 200, apnsId: '5af474c5-a212-42f3-9f99-70a9e587e1e2' };
    provider = new AppleWalletProvider({ ca: certs.wwdrCertificate, timeoutMs: 5_000 });
  });
  afterEach(async () => {
    await provider.close();
  });

  function settings(overrides: Partial<AppleWalletSettings> = {}): AppleWalletSettings {
    return {
      pass_type_identifier: PASS_TYPE,
      team_identifier: 'ABCDE12345',
      organization_name: 'Corner Shop',
      signer_certificate: certs.signerCertificate,
      signer_key: certs.signerKey,
      wwdr_certificate: certs.wwdrCertificate,
      api_url: `https://localhost:${port}`,
      ...overrides,
    };
  }

  const message = { serialNumber: 'Serial_1', pushToken: PUSH_TOKEN, text: 'Your order has shipped' };

  it('posts an empty payload to /3/device/<push token> with the pass type as topic, with the pass certificate', async () => {
    const result = await provider.send(settings(), message, { allowPrivate: true });
    expect(result).toEqual({ ok: true, providerMessageId: '5af474c5-a212-42f3-9f99-70a9e587e1e2' });
    expect(received).toEqual([
      {
        path: `/3/device/${PUSH_TOKEN}`,
        method: 'POST',
        topic: PASS_TYPE,
        contentType: 'application/json',
        body: '{}',
        clientCertSubject: PASS_TYPE,
      },
    ]);
  });

  it('keeps one HTTP/2 session for many sends', async () => {
    for (let i = 0; i < 3; i++) expect((await provider.send(settings(), message, { allowPrivate: true })).ok).toBe(true);
    expect(received).toHaveLength(3);
    expect(sessions).toBe(1);
  });

  it.each([
    [410, '{"reason":"Unregistered","timestamp":1768478400000}', 'dead_address', 'APNs answered 410: Unregistered.'],
    [429, '{"reason":"TooManyRequests"}', 'temporary', 'APNs answered 429: TooManyRequests.'],
    [500, '{"reason":"InternalServerError"}', 'temporary', 'APNs answered 500: InternalServerError.'],
    [503, '', 'temporary', 'APNs answered 503.'],
    [400, '{"reason":"BadDeviceToken"}', 'permanent', 'APNs answered 400: BadDeviceToken.'],
    [403, '{"reason":"<b>not a reason</b>"}', 'permanent', 'APNs answered 403.'],
  ] as const)('maps APNs status %i to %s', async (status, body, kind, text) => {
    answer = { status, body };
    const result = await provider.send(settings(), message, { allowPrivate: true });
    expect(result).toEqual({ ok: false, kind, message: text });
  });

  it('refuses a push token that is not hex without connecting', async () => {
    const result = await provider.send(settings(), { ...message, pushToken: '../../admin' }, { allowPrivate: true });
    expect(result).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(received).toHaveLength(0);
  });

  it('does not reach a private address unless allowed (the address guard)', async () => {
    const result = await provider.send(settings(), message, { allowPrivate: false });
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The link points to a local or private network address, which is not allowed.',
    });
    expect(received).toHaveLength(0);
  });

  it('reports a peer that refuses the client certificate as temporary, without a crash', async () => {
    const other = makePassCertificates(PASS_TYPE, 'ABCDE12345');
    try {
      const result = await provider.send(settings({ signer_certificate: other.signerCertificate, signer_key: other.signerKey }), message, {
        allowPrivate: true,
      });
      expect(result).toMatchObject({ ok: false, kind: 'temporary' });
      expect(received).toHaveLength(0);
    } finally {
      other.cleanup();
    }
  });

  it('gives up on a peer that never answers within the deadline', async () => {
    const silent = http2.createSecureServer({ key: certs.serverKey, cert: certs.serverCertificate });
    silent.on('stream', () => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const quick = new AppleWalletProvider({ ca: certs.wwdrCertificate, timeoutMs: 300 });
    try {
      const result = await quick.send(settings({ api_url: `https://localhost:${(silent.address() as AddressInfo).port}` }), message, {
        allowPrivate: true,
      });
      expect(result).toMatchObject({ ok: false, kind: 'temporary' });
      expect((result as { message: string }).message).toMatch(/within/);
    } finally {
      await quick.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('declares its vendor, channel and secret fields', () => {
    expect(provider.vendor).toBe('apple_wallet');
    expect(provider.channel).toBe('wallet');
    expect(provider.secretFields).toEqual(['signer_key', 'signer_key_passphrase']);
  });
});
