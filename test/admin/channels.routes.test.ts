import { generateKeyPairSync } from 'node:crypto';
import http2, { type Http2SecureServer, type IncomingHttpHeaders, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApnsProvider } from '../../src/modules/messaging/providers/apns.provider.js';
import { AppleWalletProvider } from '../../src/modules/messaging/providers/apple-wallet.provider.js';
import { apnsAccepts } from '../../src/modules/messaging/providers/mobile-push-routing.js';
import { VapidProvider } from '../../src/modules/messaging/providers/vapid.provider.js';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { makePassCertificates, type PassCertificates } from '../helpers/pass-certificates.js';
import { selfSignedCert } from '../helpers/self-signed-cert.js';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { browserSubscriptionKeys } from '../helpers/web-push-peer.js';
import { json, startApiPeer, type ApiPeer } from '../modules/messaging/api-peer.js';
import { TEST_SECRET_KEY } from '../modules/messaging/messaging-setup.js';
import { expectAdminError } from './admin-assertions.js';

/**
 * The channels of a shop in the admin API (docs/messaging.md, "Channels in the admin API"):
 * every channel's settings read back with its secrets write-only, the list with health,
 * and a test send through each channel's real vendor class to a local peer (SMTP, HTTP,
 * HTTP/2 over TLS for APNs and the wallet's update push).
 */

const SMTP_PASS = 'Smtp-Pa55word-7319';
const BOT_TOKEN = '123456789:AAH-telegram-secret-token-0123456789xyz';
const WA_TOKEN = 'EAAG-whatsapp-secret-token-5521';
const MAX_TOKEN = 'max-secret-token-8842-abcdef';
const SMS_KEY = 'sms-gateway-api-key-6620';
const SMS_BEARER = 'sms-bearer-secret-9931';
const SMS_EXTRA = 'extra-field-secret-4410';
const fcmKey = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const apnsKey = generateKeyPairSync('ec', {
  namedCurve: 'prime256v1',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const tls = selfSignedCert();
const IOS_TOKEN = 'a1'.repeat(32);

interface H2Request {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Every secret's text, and its last four characters, which the old masking showed. */
function forbiddenParts(secrets: readonly string[]): string[] {
  return secrets.flatMap((s) => {
    const body = s.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    return [s, body.slice(-4), body.slice(0, 16)];
  });
}

interface ChannelEntry {
  channel: string;
  configured: boolean;
  vendors: Array<{ vendor: string; secrets: Record<string, string> }>;
  health: { sent: number; failed: number; bounced: number; last_error: { at: string; vendor: string; message: string } | null };
}

async function refused(response: Promise<LightMyRequestResponse>, status: number, code: string, words?: RegExp): Promise<void> {
  const message = expectAdminError(await response, status, code);
  if (words) expect(message).toMatch(words);
}

describe.each(TEST_DIALECTS)('admin: channels on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let smtp: SmtpPeer;
  let api: ApiPeer;
  let h2: Http2SecureServer;
  let h2Url: string;
  const h2Seen: H2Request[] = [];
  const h2Sessions: ServerHttp2Session[] = [];
  let pass: PassCertificates;
  const channelList = async (shop = shopId): Promise<ChannelEntry[]> =>
    (await admin('GET', '/channels', undefined, shop)).json<{ channels: ChannelEntry[] }>().channels;
  const channelOf = async (channel: string): Promise<ChannelEntry> => (await channelList()).find((x) => x.channel === channel)!;
  const admin = (method: 'GET' | 'PUT' | 'POST', path: string, payload?: object, shop = shopId) =>
    t.app.inject({ method, url: `/admin/v1/shops/${shop}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });

  /** Per channel: the settings to PUT, the secrets in them, what to send a test to, and how the peer saw it. */
  const cases = () =>
    ({
      email: {
        settings: { smtp_url: `smtp://mailer:${SMTP_PASS}@127.0.0.1:${smtp.port}`, from: 'Shop <shop@example.org>', timeout_ms: 5000 },
        secrets: [SMTP_PASS],
        to: 'ann@example.org',
        seen: () => {
          const mail = smtp.received.at(-1);
          return mail ? { who: `${mail.user} ${mail.rcptTo.join()}`, text: mail.raw.toString('utf8') } : undefined;
        },
        proof: `mailer ann@example.org`,
      },
      sms: {
        settings: {
          provider: 'http_sms',
          url: `${api.url}/sms/send?api_key=${SMS_KEY}`,
          auth: 'bearer',
          token: SMS_BEARER,
          extra_fields: { partner: SMS_EXTRA },
        },
        secrets: [SMS_KEY, SMS_BEARER, SMS_EXTRA],
        to: '+7 900 123-45-67',
        seen: () => httpSeen('/sms/'),
        proof: `${SMS_KEY} Bearer ${SMS_BEARER} ${SMS_EXTRA} 79001234567`,
      },
      mobile_push: {
        settings: {
          fcm: {
            project_id: 'shop-project',
            client_email: 'sender@shop-project.iam.gserviceaccount.com',
            private_key: fcmKey.privateKey,
            token_uri: `${api.url}/oauth/token`,
            api_base_url: `${api.url}/fcm`,
          },
          apns: {
            team_id: 'TEAM123456',
            key_id: 'KEY1234567',
            private_key: apnsKey.privateKey,
            bundle_id: 'com.example.shop',
            api_url: h2Url,
          },
        },
        secrets: [fcmKey.privateKey, apnsKey.privateKey],
        to: IOS_TOKEN,
        seen: () => h2SeenAt(`/3/device/${IOS_TOKEN}`),
        proof: 'com.example.shop',
      },
      web_push: { settings: undefined, secrets: [], to: '', seen: () => httpSeen('/wp/'), proof: 'vapid t=' },
      telegram: {
        settings: { provider: 'telegram', bot_token: BOT_TOKEN, api_base_url: `${api.url}/tg/` },
        secrets: [BOT_TOKEN],
        to: '-100123',
        seen: () => httpSeen('/tg/'),
        proof: `/tg/bot${BOT_TOKEN}/sendMessage -100123`,
      },
      whatsapp: {
        settings: { provider: 'whatsapp', access_token: WA_TOKEN, phone_number_id: '1098765', api_base_url: `${api.url}/wa` },
        secrets: [WA_TOKEN],
        to: '79001234567',
        seen: () => httpSeen('/wa/'),
        proof: `Bearer ${WA_TOKEN} 79001234567`,
      },
      max: {
        settings: { provider: 'max', access_token: MAX_TOKEN, api_base_url: `${api.url}/max` },
        secrets: [MAX_TOKEN],
        to: '5551234',
        seen: () => httpSeen('/max/'),
        proof: `${MAX_TOKEN} user_id=5551234`,
      },
      wallet: {
        settings: {
          provider: 'apple_wallet',
          pass_type_identifier: 'pass.com.example.loyalty',
          team_identifier: 'TEAM123456',
          organization_name: 'Shop',
          signer_certificate: pass.signerCertificate,
          signer_key: pass.signerKey,
          wwdr_certificate: pass.wwdrCertificate,
          api_url: h2Url,
        },
        secrets: [pass.signerKey],
        to: 'b2'.repeat(32),
        seen: () => h2SeenAt(`/3/device/${'b2'.repeat(32)}`),
        proof: 'pass.com.example.loyalty',
      },
    }) as Record<
      string,
      { settings?: object; secrets: string[]; to: string; seen: () => { who: string; text: string } | undefined; proof: string }
    >;

  function httpSeen(prefix: string) {
    const r = [...api.seen].reverse().find((x) => x.path.startsWith(prefix));
    return r && { who: `${r.path} ${r.headers.authorization ?? ''} ${r.body}`, text: r.body };
  }
  function h2SeenAt(path: string) {
    const r = [...h2Seen].reverse().find((x) => x.path === path);
    return r && { who: `${String(r.headers['apns-topic'])}`, text: r.body };
  }

  beforeAll(async () => {
    pass = makePassCertificates('pass.com.example.loyalty', 'TEAM123456');
    t = await createTestApp({ dialect, env: { PATRON_SECRET_KEY: TEST_SECRET_KEY, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' } });
    const registry = t.app.services.messagingProviders;
    registry
      .replace(new ApnsProvider({ clock: t.clock, ca: tls.cert, timeoutMs: 5000 }), { accepts: apnsAccepts })
      .replace(new AppleWalletProvider({ ca: tls.cert, timeoutMs: 5000 }))
      .replace(new VapidProvider({ clock: t.clock, allowHttpEndpoints: true }));
    ({ shopId } = await createShopFixture(t.app.services));
    smtp = await startSmtpPeer({ auth: { user: 'mailer', pass: SMTP_PASS } });
    api = await startApiPeer();
    api.reply = (request, response) => {
      if (request.path.startsWith('/oauth/token'))
        return json(response, 200, { access_token: 'ya29.t', expires_in: 3599, token_type: 'Bearer' });
      if (request.path.startsWith('/tg/')) return json(response, 200, { ok: true, result: { message_id: 4711 } });
      if (request.path.startsWith('/wa/')) return json(response, 200, { messages: [{ id: 'wamid.1' }] });
      if (request.path.startsWith('/max/')) return json(response, 200, { message: { body: { mid: 'mid.1' } } });
      if (request.path.startsWith('/wp/')) return void response.writeHead(201).end();
      return json(response, 200, { id: 'sms-1' });
    };
    h2 = http2.createSecureServer({ key: tls.key, cert: tls.cert });
    h2.on('session', (session) => h2Sessions.push(session));
    h2.on('stream', (stream, headers) => {
      stream.on('error', () => undefined);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        h2Seen.push({ path: String(headers[':path']), headers, body: Buffer.concat(chunks).toString('utf8') });
        stream.respond({ ':status': 200, 'apns-id': '00000000-0000-0000-0000-000000000001' });
        stream.end();
      });
    });
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    h2Url = `https://localhost:${(h2.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await t?.app.services.messagingProviders.close();
    await t?.close();
    await smtp?.close();
    await api?.close();
    for (const session of h2Sessions) session.destroy();
    await new Promise<void>((resolve) => (h2 ? h2.close(() => resolve()) : resolve()));
    pass?.cleanup();
  });

  it('lists all eight channels, none configured, for a new shop', async () => {
    const other = await createShopFixture(t.app.services);
    const r = await admin('GET', '/channels', undefined, other.shopId);
    expect(r.statusCode, r.body).toBe(200);
    const list = r.json().channels as Array<Record<string, unknown>>;
    expect(list.map((c) => c.channel)).toEqual(['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet']);
    for (const c of list) {
      expect(c).toMatchObject({ configured: false, vendors: [], health: { sent: 0, failed: 0, bounced: 0, last_error: null } });
    }
  });

  it.each(['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'])(
    '%s: reads its secrets back write-only, keeps them when the read is saved back, and test-sends through the real vendor',
    async (channel) => {
      const c = cases()[channel]!;
      let secrets = c.secrets;
      let to = c.to;
      if (channel === 'web_push') {
        const put = await admin('POST', '/channels/web_push/vapid_keys', { subject: 'mailto:ops@example.org' });
        expect(put.statusCode, put.body).toBe(200);
        const stored = await t.app.services.messagingChannels.settingsFor(shopId, 'web_push');
        secrets = [String(stored?.vendors.vapid?.vapid_private_key)];
        const keys = browserSubscriptionKeys();
        to = JSON.stringify({ endpoint: `${api.url}/wp/sub-1`, keys: { p256dh: keys.p256dh, auth: keys.auth } });
      } else {
        const put = await admin('PUT', `/channels/${channel}`, c.settings);
        expect(put.statusCode, put.body).toBe(200);
        for (const part of forbiddenParts(secrets)) expect(put.body).not.toContain(part);
      }
      const read = await admin('GET', `/channels/${channel}`);
      expect(read.statusCode, read.body).toBe(200);
      for (const part of forbiddenParts(secrets)) expect(read.body, `GET shows ${part}`).not.toContain(part);

      // Saving what was read changes no secret: the test send below still authenticates.
      const saved = await admin('PUT', `/channels/${channel}`, read.json());
      expect(saved.statusCode, saved.body).toBe(200);

      const entry = await channelOf(channel);
      expect(entry.configured).toBe(true);
      for (const part of forbiddenParts(secrets)) expect(JSON.stringify(entry)).not.toContain(part);
      const states: Record<string, string> = Object.assign({}, ...entry.vendors.map((v) => v.secrets));
      expect(Object.values(states).length).toBeGreaterThan(0);
      expect(Object.values(states)).toContain('set');
      const before = entry.health.sent;

      const sent = await admin('POST', `/channels/${channel}/test`, { to });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json(), sent.body).toMatchObject({ status: 'sent', error: null });
      const seen = c.seen();
      expect(seen, 'the peer got the test').toBeDefined();
      for (const word of c.proof.split(' ')) expect(seen!.who + seen!.text).toContain(word);

      const after = await channelOf(channel);
      expect(after.health.sent).toBe(before + 1);

      // The write is in the audit log, the address typed with it.
      const audited = await t.db.db
        .selectFrom('audit_log')
        .select(['route', 'status'])
        .where('shop_id', '=', shopId)
        .where('route', '=', '/admin/v1/shops/:shop_id/channels/:channel/test')
        .execute();
      expect(audited.length).toBeGreaterThan(0);
      // Nor does the audit log keep a secret of the settings written.
      const entries = await t.db.db.selectFrom('audit_log').select(['before', 'after']).where('shop_id', '=', shopId).execute();
      for (const part of forbiddenParts(secrets)) expect(JSON.stringify(entries), `audit keeps ${part}`).not.toContain(part);
      const log = await admin('GET', `/messages?code=${sent.json().code}`);
      expect(log.json().messages).toEqual([expect.objectContaining({ channel, status: 'sent', test: true, attempts: 1 })]);
    },
  );

  it("shows an http_sms gateway's login as not set, and its fixed fields as one write-only secret", async () => {
    expect((await channelOf('sms')).vendors).toEqual([
      { vendor: 'http_sms', secrets: { token: 'set', password: 'not_set', extra_fields: 'set', url: 'set' } },
    ]);
    const read = (await admin('GET', '/channels/sms')).json();
    expect(read).toMatchObject({ url: `${api.url}/sms/send?api_key=****`, token: '****', extra_fields: '****' });
  });

  it("records a vendor's refusal as the channel's last error with its secrets cut out, and counts it failed", async () => {
    const previous = api.reply;
    api.reply = (request, response) =>
      request.path.startsWith('/tg/')
        ? json(response, 401, { ok: false, error_code: 401, description: `Unauthorized: token ${BOT_TOKEN} at ${request.path}` })
        : previous(request, response);
    try {
      const sent = await admin('POST', '/channels/telegram/test', { to: '42' });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().status).toBe('failed');
      expect(sent.json().error).toMatch(/^Telegram answered 401: Unauthorized/);
      const telegram = await channelOf('telegram');
      expect(telegram.health.failed).toBe(1);
      expect(telegram.health.last_error).toMatchObject({ vendor: 'telegram', at: new Date(t.clock.now()).toISOString() });
      expect(telegram.health.last_error?.message).toMatch(/^Telegram answered 401/);
      for (const part of forbiddenParts([BOT_TOKEN])) {
        expect(JSON.stringify(telegram)).not.toContain(part);
        expect(sent.body).not.toContain(part);
      }
      const detail = await admin('GET', `/messages?code=${sent.json().code}`);
      expect(detail.body).not.toContain(BOT_TOKEN);
    } finally {
      api.reply = previous;
    }
  });

  it('counts a bounced email once, and the day of counts moves on with the clock', async () => {
    await admin('PUT', '/mailings/transactional/welcome', { email: { subject: 'Hi', html: '<p>Hi</p>' } });
    const message = await t.app.services.transact.transact(shopId, {
      mailingCode: 'welcome',
      recipient: { email: 'bob@example.org' },
      variables: {},
      test: false,
      cc: [],
      bcc: [],
    });
    await createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') }).runDue();
    const bounce = { code: String(message.code), type: 'hard' as const };
    expect(await t.app.services.messageOutcomes.bounce(shopId, bounce)).toBe(true);
    await t.app.services.messageOutcomes.bounce(shopId, bounce);
    const health = async () => (await channelOf('email')).health;
    expect(await health()).toMatchObject({ sent: 2, bounced: 1 });
    t.clock.advance(23 * 3_600_000);
    expect(await health()).toMatchObject({ sent: 2, bounced: 1 });
    t.clock.advance(2 * 3_600_000);
    expect(await health()).toMatchObject({ sent: 0, failed: 0, bounced: 0 });
  });

  it('refuses a test send in words: an unconfigured channel, a bad address, an unknown channel, an overlong body', async () => {
    const other = await createShopFixture(t.app.services);
    await refused(
      admin('POST', '/channels/sms/test', { to: '79001234567' }, other.shopId),
      409,
      'CONFLICT',
      /Channel sms is not configured/,
    );
    await refused(
      admin('POST', '/channels/email/test', { to: 'not an address' }),
      422,
      'VALIDATION_FAILED',
      /`to` must be an email address/,
    );
    await refused(admin('POST', '/channels/email/test', { to: 'a@b.org\r\nBcc: x@y.org' }), 422, 'VALIDATION_FAILED', /`to`/);
    await refused(admin('POST', '/channels/web_push/test', { to: '{"endpoint":1}' }), 422, 'VALIDATION_FAILED', /PushSubscription/);
    await refused(admin('POST', '/channels/fax/test', { to: '1' }), 404, 'NOT_FOUND', /Unknown channel/);
    await refused(admin('POST', '/channels/email/test', { to: 'x'.repeat(4097) }), 422, 'VALIDATION_FAILED', /`to`/);
    await refused(admin('POST', '/channels/email/test', { to: 'a@b.org', extra: 1 }), 422, 'VALIDATION_FAILED');
  });

  it('allows 20 test sends an hour per shop, then 429 until the hour has passed; another shop is not held', async () => {
    const limited = await createShopFixture(t.app.services);
    const free = await createShopFixture(t.app.services);
    for (const shop of [limited.shopId, free.shopId]) {
      expect((await admin('PUT', '/channels/telegram', cases().telegram!.settings, shop)).statusCode).toBe(200);
    }
    for (let i = 0; i < 20; i++) expect((await admin('POST', '/channels/telegram/test', { to: '7' }, limited.shopId)).statusCode).toBe(200);
    await refused(admin('POST', '/channels/telegram/test', { to: '7' }, limited.shopId), 429, 'RATE_LIMITED', /20 test sends an hour/);
    expect((await admin('POST', '/channels/telegram/test', { to: '7' }, free.shopId)).statusCode).toBe(200);
    t.clock.advance(3_600_000);
    expect((await admin('POST', '/channels/telegram/test', { to: '7' }, limited.shopId)).statusCode).toBe(200);
  });
});
