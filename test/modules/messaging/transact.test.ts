import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * The messaging core end to end on both databases (issue 16 parts 1–4): channel settings
 * with sealed secrets, a transactional mailing, POST /transact in JSON and multipart,
 * the delivery job through the registry's vendor, retries, permanent and dead-address
 * failures, unsubscribes, test sends, Idempotency-Key, and the admin's delivery log.
 */

describe.each(TEST_DIALECTS)('messaging core on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(
      s.admin('PUT', '/channels/email', { smtp_url: 'smtp://mailer:hunter2-secret@127.0.0.1:2525', from: 'Shop <shop@example.org>' }),
    );
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'sms-key-0123456789abcdef', sender: 'SHOP' }));
    await expectOk(
      s.admin('PUT', '/channels/mobile_push', {
        fcm: { api_key: 'fcm-key-0123456789abcdef' },
        apns: { api_key: 'apns-key-0123456789abcdef' },
      }),
    );
    await expectOk(
      s.admin('PUT', '/mailings/transactional/order', {
        name: 'Order confirmation',
        email: {
          subject: 'Order {{ order_id }}',
          html: '<p>Hello {{ profile.first_name | default: "friend" }}, {{ note }} {{ trusted | raw }}</p>',
        },
        sms: { body: 'Order {{ variables.order_id }}: {{ note }}' },
        mobile_push: { title: 'Order {{ order_id }}', body: 'On its way', url: 'https://shop.example/o/{{ order_id }}' },
        locales: { de: { email: { subject: 'Bestellung {{ order_id }}', html: '<p>Hallo</p>' } } },
      }),
    );
  });

  afterAll(async () => {
    await s.t.close();
  });

  async function deliveries(code: string) {
    return s.t.db.db.selectFrom('messaging_deliveries').selectAll().where('code', '=', code).orderBy('seq').execute();
  }

  describe('channel settings', () => {
    it('stores secrets sealed and answers them write-only, no part of them', async () => {
      const email = await expectOk(s.admin('GET', '/channels/email'));
      expect(email).toEqual({ provider: 'smtp', smtp_url: 'smtp://****:****@127.0.0.1:2525', from: 'Shop <shop@example.org>' });
      const sms = await expectOk(s.admin('GET', '/channels/sms'));
      expect(sms).toEqual({ provider: 'test_sms', api_key: '****', sender: 'SHOP' });
      const rows = await s.t.db.db.selectFrom('messaging_channels').select('settings').where('shop_id', '=', s.shopId).execute();
      const stored = rows.map((r) => r.settings).join('\n');
      expect(stored).not.toContain('hunter2');
      expect(stored).not.toContain('sms-key-0123456789abcdef');
      expect(stored).toContain('sealed:v1:');
    });

    it('keeps the stored secret when the masked value is sent back', async () => {
      await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: '****', sender: 'SHOP2' }));
      const open = await s.t.app.services.messagingChannels.settingsFor(s.shopId, 'sms');
      expect(open?.vendors.test_sms).toEqual({ api_key: 'sms-key-0123456789abcdef', sender: 'SHOP2' });
    });

    it('refuses settings the vendor does not accept, and unknown vendors and channels', async () => {
      const bad = await s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 5 });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.message).toContain('api_key');
      const unknown = await s.admin('PUT', '/channels/sms', { provider: 'nope', api_key: 'x' });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().error.message).toContain('test_sms');
      expect((await s.admin('PUT', '/channels/pigeon', { provider: 'x' })).statusCode).toBe(404);
      expect((await s.admin('GET', '/channels/telegram')).statusCode).toBe(404);
    });
  });

  describe('mailings', () => {
    it('refuses a template that does not parse, naming the template and the line', async () => {
      const r = await s.admin('PUT', '/mailings/transactional/broken', {
        sms: { body: 'ok' },
        email: { subject: 's', html: '<p>\n{% if x %}\nno end' },
      });
      expect(r.statusCode).toBe(422);
      expect(r.json().error.message).toMatch(/email\.html does not parse: .*line:2/);
      const filter = await s.admin('PUT', '/mailings/transactional/broken', { sms: { body: '{{ x | no_such_filter }}' } });
      expect(filter.statusCode).toBe(422);
    });

    it('previews: HTML outputs escaped, raw opts out, text parts not escaped, locale variants', async () => {
      const preview = await expectOk(
        s.admin('POST', '/mailings/transactional/order/preview', {
          variables: { order_id: 'A<1>', note: '<b>&</b>', trusted: '<i>ok</i>' },
          profile: { first_name: 'Ann' },
        }),
      );
      expect(preview.email.html).toBe('<p>Hello Ann, &lt;b&gt;&amp;&lt;/b&gt; <i>ok</i></p>');
      expect(preview.email.subject).toBe('Order A<1>');
      expect(preview.email.text).toBe('Hello Ann, <b>&</b> ok');
      expect(preview.sms.body).toBe('Order A<1>: <b>&</b>');
      const de = await expectOk(
        s.admin('POST', '/mailings/transactional/order/preview', { variables: { order_id: '7' }, locale: 'de-AT' }),
      );
      expect(de.email.subject).toBe('Bestellung 7');
      expect(de.sms.body).toBe('Order 7: ');
    });

    it('sends a test from the admin API, seen in the delivery log only, and lists mailings', async () => {
      const { code } = await expectOk(
        s.admin('POST', '/mailings/transactional/order/test', { email: 'qa@example.org', variables: { order_id: 'Q' } }),
      );
      await s.runner.runDue();
      const log = await expectOk(s.admin('GET', `/messages?code=${code}`));
      expect(log.messages).toMatchObject([{ code, channel: 'email', status: 'sent', test: true, to: 'qa@example.org' }]);
      expect(s.email.sent.at(-1)!.message.subject).toBe('Order Q');
      expect((await s.get(`/notifications/${code}`, {})).statusCode).toBe(404);
      expect((await s.admin('POST', '/mailings/transactional/order/test', { variables: {} })).statusCode).toBe(422);
      expect((await s.admin('POST', '/mailings/transactional/none/test', { email: 'qa@example.org' })).statusCode).toBe(404);
      const list = await expectOk(s.admin('GET', '/mailings/transactional'));
      expect((list.mailings as Array<{ code: string }>).map((m) => m.code)).toContain('order');
      const one = await expectOk(s.admin('GET', '/mailings/transactional/order'));
      expect(one).toMatchObject({ code: 'order', name: 'Order confirmation', sms: { body: 'Order {{ variables.order_id }}: {{ note }}' } });
    });

    it('renders MJML into HTML', async () => {
      await expectOk(
        s.admin('PUT', '/mailings/transactional/mjml', {
          email: {
            subject: 'Hi',
            html: '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{ name }}</mj-text></mj-column></mj-section></mj-body></mjml>',
          },
        }),
      );
      const preview = await expectOk(s.admin('POST', '/mailings/transactional/mjml/preview', { variables: { name: 'Ann & Bob' } }));
      expect(preview.email.html).toContain('<!doctype html>');
      expect(preview.email.html).toContain('Hi Ann &amp; Bob');
      expect(preview.email.text).toContain('Hi Ann & Bob');
    });
  });

  describe('POST /transact', () => {
    it('answers the code after storing the message with a delivery and a job per address, then delivers', async () => {
      const before = s.email.sent.length;
      const body = await expectOk(
        s.transact({
          code: 'order',
          email: 'Ann@Example.org',
          phone: '+7 900 111-22-33',
          variables: { order_id: '42', note: 'x<y' },
          cc: ['boss@example.org'],
        }),
      );
      expect(body).toEqual({ success: true, payload: { code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) } });
      const code = body.payload.code as string;
      const rows = await deliveries(code);
      expect(rows.map((r) => [r.channel, r.address, r.status])).toEqual([
        ['email', 'ann@example.org', 'queued'],
        ['sms', '79001112233', 'queued'],
      ]);
      const jobs = await s.t.db.db.selectFrom('jobs').select(['status', 'payload']).where('name', '=', 'messaging.deliver').execute();
      expect(jobs.filter((j) => j.payload.includes(code))).toHaveLength(2);

      await s.runner.runDue();
      expect(s.email.sent.length).toBe(before + 1);
      const mail = s.email.sent.at(-1)!;
      expect(mail.settings).toEqual({ smtp_url: 'smtp://mailer:hunter2-secret@127.0.0.1:2525', from: 'Shop <shop@example.org>' });
      expect(mail.message).toMatchObject({ to: 'ann@example.org', cc: ['boss@example.org'], bcc: [], subject: 'Order 42' });
      expect(mail.message.html).toContain('x&lt;y');
      expect(s.sms.sent.at(-1)!.message).toEqual({ to: '79001112233', body: 'Order 42: x<y', idKey: code });
      expect((await deliveries(code)).map((r) => r.status)).toEqual(['sent', 'sent']);
    });

    it('takes multipart forms with variables[KEY] and cc[]', async () => {
      const boundary = 'XyZ';
      const parts = [
        ['shop_id', s.shopId],
        ['shop_secret', s.secret],
        ['code', 'order'],
        ['email', 'multi@example.org'],
        ['variables[order_id]', '77'],
        ['variables[note]', 'fine'],
        ['cc[]', 'a@example.org'],
        ['cc[]', 'b@example.org'],
      ];
      const payload =
        parts.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') +
        `--${boundary}--\r\n`;
      const r = await s.t.app.inject({
        method: 'POST',
        url: '/transact',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(r.statusCode, r.body).toBe(200);
      await s.runner.runDue();
      expect(s.email.sent.at(-1)!.message).toMatchObject({
        to: 'multi@example.org',
        subject: 'Order 77',
        cc: ['a@example.org', 'b@example.org'],
      });
    });

    it('sends mobile push to each token through the vendor of its platform', async () => {
      const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
      await s.t.app.services.profiles.setProfile(
        { shopId: s.shopId, timezone: 'UTC' },
        { did, identifiers: {} },
        { email: 'push@example.org' },
      );
      await s.t.app.services.profiles.registerPushToken(s.shopId, did, 'android-token-1', 'android');
      const did2 = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
      await s.t.app.services.profiles.setProfile(
        { shopId: s.shopId, timezone: 'UTC' },
        { did: did2, identifiers: {} },
        { email: 'push@example.org' },
      );
      await s.t.app.services.profiles.registerPushToken(s.shopId, did2, 'ios-token-1', 'ios');
      const { payload } = await expectOk(s.transact({ code: 'order', email: 'push@example.org', variables: { order_id: '5' } }));
      await s.runner.runDue();
      expect(s.fcm.sent.at(-1)!.message).toMatchObject({
        token: 'android-token-1',
        platform: 'android',
        title: 'Order 5',
        url: 'https://shop.example/o/5',
        idKey: payload.code,
        data: {
          id: payload.code,
          type: 'transactional',
          shop_id: s.shopId,
          title: 'Order 5',
          event: '{"type":"web","uri":"https://shop.example/o/5"}',
        },
      });
      expect(s.apns.sent.at(-1)!.message).toMatchObject({ token: 'ios-token-1', platform: 'ios' });
    });

    it('skips a channel the recipient unsubscribed from (the *_transactional flags)', async () => {
      await s.t.app.services.profiles.setSubscriptions(
        s.shopId,
        { identifiers: { email: 'quiet@example.org', phone: '79005550000' } },
        { email_transactional: false },
      );
      const { payload } = await expectOk(
        s.transact({ code: 'order', email: 'quiet@example.org', phone: '79005550000', variables: { order_id: '1' } }),
      );
      expect((await deliveries(payload.code)).map((r) => r.channel)).toEqual(['sms']);
    });

    it('returns the first code for a retried Idempotency-Key, storing one message', async () => {
      const headers = { 'idempotency-key': 'order-9001' };
      const first = await expectOk(s.transact({ code: 'order', email: 'idem@example.org', variables: { order_id: '9001' } }, headers));
      const again = await expectOk(s.transact({ code: 'order', email: 'idem@example.org', variables: { order_id: '9001' } }, headers));
      expect(again.payload.code).toBe(first.payload.code);
      const rows = await s.t.db.db.selectFrom('messaging_messages').select('code').where('idempotency_key', '=', 'order-9001').execute();
      expect(rows).toHaveLength(1);
    });

    it('test sends go out without a code, history or statistics', async () => {
      await s.runner.runDue();
      const before = s.email.sent.length;
      const body = await expectOk(s.transact({ code: 'order', email: 'tester@example.org', test: '1', variables: { order_id: 'T' } }));
      expect(body).toEqual({ success: true, payload: { code: null } });
      await s.runner.runDue();
      expect(s.email.sent.length).toBe(before + 1);
      const history = await expectOk(s.get('/notifications', { email: 'tester@example.org' }));
      expect(history.payload.messages).toEqual([]);
      const log = await expectOk(s.admin('GET', '/messages?email=tester@example.org&limit=5'));
      expect(log.messages).toMatchObject([{ channel: 'email', status: 'sent', test: true, to: 'tester@example.org' }]);
    });

    it('refuses bad requests in the success envelope', async () => {
      const cases: Array<[Record<string, unknown>, number, RegExp]> = [
        [{ code: 'nope', email: 'a@example.org' }, 404, /Mailing is not found/],
        [{ code: 'order', email: 'a@example.org\r\nBcc: victim@example.org' }, 422, /line breaks/],
        [{ code: 'order', email: 'a@example.org', cc: ['x@example.org\nBcc: y@example.org'] }, 422, /line breaks/],
        [
          { code: 'order', email: 'a@example.org', variables: { big: 'x'.repeat(1024 * 1024) } },
          422,
          /Variable `big` is too large: at most 16384 bytes/,
        ],
        [{ code: 'order' }, 422, /Identifier is not valid/],
        [{ email: 'a@example.org' }, 422, /`code` is required/],
      ];
      for (const [body, status, message] of cases) {
        const r = await s.transact(body);
        expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
        expect(r.json().success).toBe(false);
        expect(r.json().payload.message).toMatch(message);
      }
      const wrong = await s.t.app.inject({
        method: 'POST',
        url: '/transact',
        payload: { shop_id: s.shopId, shop_secret: 'wrong', code: 'order', email: 'a@example.org' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ success: false, payload: { message: 'API secret is not correct' } });
    });
  });

  describe('delivery', () => {
    it('retries a temporary failure no sooner than the vendor asked, then sends once', async () => {
      s.email.answer({ ok: false, kind: 'temporary', message: '421 try later', retryAfterMs: 120_000 });
      const { payload } = await expectOk(s.transact({ code: 'order', email: 'retry@example.org', variables: { order_id: 'R' } }));
      await s.runner.runDue();
      let [row] = await deliveries(payload.code);
      expect(row).toMatchObject({ status: 'queued', attempts: 1, error: '421 try later' });
      s.t.clock.advance(60_000);
      await s.runner.runDue();
      expect((await deliveries(payload.code))[0]?.attempts).toBe(1);
      s.t.clock.advance(60_000);
      await s.runner.runDue();
      [row] = await deliveries(payload.code);
      expect(row).toMatchObject({ status: 'sent', attempts: 2, error: null });
      expect(s.email.sent.filter((m) => m.message.to === 'retry@example.org')).toHaveLength(2);
    });

    it('records a permanent failure with the vendor message, and never tries a dead address again', async () => {
      s.sms.answer({ ok: false, kind: 'permanent', message: 'Sender id not allowed' });
      const first = await expectOk(s.transact({ code: 'order', phone: '79007770001', variables: { order_id: 'P' } }));
      await s.runner.runDue();
      expect((await deliveries(first.payload.code))[0]).toMatchObject({ status: 'failed', error: 'Sender id not allowed', attempts: 1 });

      s.email.answer({ ok: false, kind: 'dead_address', message: '550 mailbox unavailable' });
      const dead = await expectOk(s.transact({ code: 'order', email: 'gone@example.org', variables: { order_id: 'D' } }));
      await s.runner.runDue();
      expect((await deliveries(dead.payload.code))[0]).toMatchObject({ status: 'failed', error: '550 mailbox unavailable' });
      const sentBefore = s.email.sent.length;
      const later = await expectOk(s.transact({ code: 'order', email: 'gone@example.org', variables: { order_id: 'D2' } }));
      expect(await deliveries(later.payload.code)).toEqual([]);
      await s.runner.runDue();
      expect(s.email.sent.length).toBe(sentBefore);

      const log = await expectOk(s.admin('GET', `/messages?code=${first.payload.code}`));
      expect(log.messages).toEqual([
        {
          code: first.payload.code,
          channel: 'sms',
          type: 'transactional',
          status: 'failed',
          error: 'Sender id not allowed',
          to: '79007770001',
          test: false,
          attempts: 1,
          created_at: expect.any(String),
          sent_at: null,
        },
      ]);
    });

    it('records a channel the shop has not configured as failed in the log', async () => {
      await expectOk(s.admin('PUT', '/mailings/transactional/tg', { telegram: { text: 'hi' }, email: { subject: 's', html: 'h' } }));
      const { payload } = await expectOk(s.transact({ code: 'tg', email: 'tg@example.org', telegram_id: '12345' }));
      const rows = await deliveries(payload.code);
      expect(rows.map((r) => [r.channel, r.status, r.error])).toEqual([
        ['email', 'queued', null],
        ['telegram', 'failed', 'Channel telegram is not configured for the shop.'],
      ]);
    });
  });
});
