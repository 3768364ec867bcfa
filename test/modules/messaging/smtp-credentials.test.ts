import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmailMessage, SendContext } from '../../../src/modules/messaging/providers/provider.js';
import { SmtpProvider } from '../../../src/modules/messaging/providers/smtp.provider.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { loggerOptions } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startSmtpPeer, type SmtpPeer } from '../../helpers/smtp-peer.js';
import { TEST_SECRET_KEY } from './messaging-setup.js';

/**
 * An SMTP server that refuses a login may quote what it was sent: the base64 of AUTH
 * PLAIN (`\0user\0password`) or of each AUTH LOGIN line. None of it may reach a
 * delivery's stored error or a log line.
 */
const USER = 'mailer-login';
const PASS = 'Wrong-Secret-42';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const PLAIN_TOKEN = b64(`\0${USER}\0${PASS}`);
const FORBIDDEN = [USER, PASS, PLAIN_TOKEN, b64(USER), b64(PASS)];

const message: EmailMessage = { to: 'anna@example.com', cc: [], bcc: [], subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', headers: {} };
const LOOPBACK: SendContext = { allowPrivate: ['127.0.0.1'] };

function expectNoCredential(text: string): void {
  for (const secret of FORBIDDEN) expect(text, `quotes ${secret}`).not.toContain(secret);
}

describe('SMTP login refusals that quote the credentials', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function refuse(
    reply: (attempt: { method: string; username: string; password: string }) => string,
    authMethods = ['PLAIN'],
  ): Promise<string> {
    const smtp = await startSmtpPeer({ auth: { user: USER, pass: 'the-right-one' }, authMethods, authFailureReply: reply });
    cleanups.push(() => smtp.close());
    const provider = new SmtpProvider();
    cleanups.push(() => provider.close());
    const result = await provider.send(
      { smtp_url: `smtp://${USER}:${PASS}@127.0.0.1:${smtp.port}`, from: 'Shop <shop@example.org>', timeout_ms: 5000 },
      message,
      LOOPBACK,
    );
    expect(smtp.authAttempts).toBe(1);
    expect(result).toMatchObject({ ok: false, kind: 'permanent' });
    return result.ok ? '' : result.message;
  }

  it('withholds the AUTH PLAIN token a 535 quotes with its command', async () => {
    const text = await refuse((a) => `535 5.7.8 Authentication failed: AUTH PLAIN ${b64(`\0${a.username}\0${a.password}`)}`);
    expect(text).toMatch(/^The SMTP server refused the login: 535 5\.7\.8 Authentication failed: AUTH PLAIN \*\*\*\*/);
    expectNoCredential(text);
  });

  it('withholds the AUTH PLAIN token a 535 quotes on its own', async () => {
    const text = await refuse((a) => `535 5.7.8 Credentials ${b64(`\0${a.username}\0${a.password}`)} rejected`);
    expect(text).toMatch(/^The SMTP server refused the login: 535 5\.7\.8 Credentials \*\*\*\* rejected$/);
    expectNoCredential(text);
  });

  it('withholds an AUTH PLAIN token with an authorization identity, and the password in any base64 alignment', async () => {
    const text = await refuse((a) => `535 5.7.8 Got ${b64(`${a.username}\0${a.username}\0${a.password}`)} and ${b64(`xy${a.password}`)}`);
    expectNoCredential(text);
    expect(text).not.toContain(b64(`xy${PASS}`));
  });

  it('withholds the AUTH LOGIN lines a 535 quotes', async () => {
    const text = await refuse((a) => `535 5.7.8 Bad login ${b64(a.username)} / ${b64(a.password)}`, ['LOGIN']);
    expectNoCredential(text);
  });
});

describe.each(TEST_DIALECTS)('a refused SMTP login through delivery on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  const lines: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpPeer({
      auth: { user: USER, pass: 'the-right-one' },
      authMethods: ['PLAIN'],
      authFailureReply: (a) => `535 5.7.8 Authentication failed: AUTH PLAIN ${b64(`\0${a.username}\0${a.password}`)}`,
    });
    t = await createTestApp({ dialect, env: { PATRON_SECRET_KEY: TEST_SECRET_KEY, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('stores and logs the refusal without the token, the login or the password', async () => {
    const { shopId, secret } = await createShopFixture(t.app.services);
    const admin = (path: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, payload });
    const channel = await admin('/channels/email', {
      provider: 'smtp',
      smtp_url: `smtp://${USER}:${PASS}@127.0.0.1:${smtp.port}`,
      from: 'Shop <shop@example.org>',
    });
    expect(channel.statusCode, channel.body).toBe(200);
    expect((await admin('/mailings/transactional/hello', { email: { subject: 'Hi', html: '<p>Hi</p>' } })).statusCode).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/transact',
      payload: { shop_id: shopId, shop_secret: secret, code: 'hello', email: 'reader@example.org' },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const log = pino(loggerOptions('debug'), stream);
    const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log });
    await runner.runDue();

    expect(smtp.authAttempts).toBe(1);
    const rows = await t.db.db.selectFrom('messaging_deliveries').select(['status', 'error']).where('shop_id', '=', shopId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.error).toMatch(/^The SMTP server refused the login: 535 /);
    expectNoCredential(rows[0]!.error ?? '');
    expectNoCredential(lines.join(''));
  });
});
