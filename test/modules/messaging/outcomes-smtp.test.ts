import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startSmtpPeer, type SmtpPeer } from '../../helpers/smtp-peer.js';
import { TEST_SECRET_KEY } from './messaging-setup.js';

/**
 * The provider tier of email tracking: a transactional email sent by the shipped SMTP
 * vendor to a real local SMTP server arrives with the signed click link, the open pixel
 * and the RFC 8058 headers, and the link it carries redirects.
 */
describe('tracked email through a real SMTP peer', () => {
  let t: TestApp;
  let smtp: SmtpPeer;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    t = await createTestApp({
      env: { PATRON_SECRET_KEY: TEST_SECRET_KEY, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1', PATRON_PUBLIC_URL: 'https://patron.example.org' },
    });
  });

  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('arrives with the rewritten links and the List-Unsubscribe headers', async () => {
    const { shopId, secret } = await createShopFixture(t.app.services);
    const admin = (method: 'PUT', path: string, payload: object) =>
      t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, payload });
    expect(
      (
        await admin('PUT', '/channels/email', {
          provider: 'smtp',
          smtp_url: `smtp://127.0.0.1:${smtp.port}`,
          from: 'Shop <shop@example.org>',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await admin('PUT', '/mailings/transactional/hello', {
          email: { subject: 'Hi', html: '<p><a href="https://shop.example/sale">Sale</a></p>' },
        })
      ).statusCode,
    ).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/transact',
      payload: { shop_id: shopId, shop_secret: secret, code: 'hello', email: 'reader@example.org' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = sent.json().payload.code as string;
    const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    await runner.runDue();

    const rows = await t.db.db.selectFrom('messaging_deliveries').select(['status', 'error']).execute();
    expect(rows).toEqual([{ status: 'sent', error: null }]);
    expect(smtp.received).toHaveLength(1);
    const mail = await simpleParser(smtp.received[0]!.raw);
    const base = `https://patron.example.org/m/${shopId}.${code}`;
    const line = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ');
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // The delivery's own Message-ID reaches the wire: bounce reports name it.
    expect(mail.messageId).toMatch(new RegExp(`^<${code}\\.0@[^>]+>$`));
    expect(String(line('list-unsubscribe'))).toMatch(
      new RegExp(`^List-Unsubscribe: <${base.replace(/\./g, '\\.')}/u\\?s=[A-Za-z0-9_-]{22}>$`),
    );
    const html = String(mail.html);
    const click = /href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(click.startsWith(`${base}/c?u=https%3A%2F%2Fshop.example%2Fsale&s=`)).toBe(true);
    expect(html).toContain(`<img src="${base}/o?s=`);

    const u = new URL(click);
    const followed = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe('https://shop.example/sale');
  });
});
