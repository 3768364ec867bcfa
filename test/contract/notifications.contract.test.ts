import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from '../modules/messaging/messaging-setup.js';

/**
 * GET /notifications (interface.md endpoint 15, the "Sent message" table), GET
 * /notifications/counters (contract-notes "Messaging"), GET /notifications/counters/extended
 * (endpoint 16, the "Extended counters" record) and GET /notifications/{code}, request in
 * → exact response out, on both databases.
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(TEST_DIALECTS)('notifications contract on %s', (dialect) => {
  let s: MessagingStack;
  let emailCode: string;
  let smsCode: string;
  let campaignId: number;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'shop@example.org' }));
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'k' }));
    const mailing = await expectOk(
      s.admin('PUT', '/mailings/transactional/welcome', {
        email: { subject: 'Welcome {{ name }}', html: '<p>Hi</p>' },
        sms: { body: 'Hi {{ name }}' },
      }),
    );
    campaignId = mailing.id;
    // Day 1: an email; day 2: an email and an SMS; the first email is opened and clicked.
    emailCode = (await expectOk(s.transact({ code: 'welcome', email: 'ann@example.org', variables: { name: 'Ann' } }))).payload.code;
    await s.runner.runDue();
    s.t.clock.advance(DAY);
    smsCode = (await expectOk(s.transact({ code: 'welcome', email: 'ann@example.org', phone: '79001234567', variables: { name: 'Ann' } })))
      .payload.code;
    await s.runner.runDue();
    const at = s.t.clock.now();
    await s.t.db.db
      .updateTable('messaging_deliveries')
      .set({ opened_at: at, clicked_at: at, purchased_at: at })
      .where('shop_id', '=', s.shopId)
      .where('code', '=', emailCode)
      .execute();
  });

  afterAll(async () => {
    await s.t.close();
  });

  const day1 = new Date(Date.UTC(2026, 0, 15, 12)).toISOString();
  const day2 = new Date(Date.UTC(2026, 0, 16, 12)).toISOString();
  const noStats = {
    opened: false,
    clicked: false,
    hard_bounced: false,
    soft_bounced: false,
    complained: false,
    unsubscribed: false,
    purchased: false,
  };

  it('lists sent messages newest first with every field of the Sent message table', async () => {
    const body = await expectOk(s.get('/notifications', { email: 'ann@example.org' }));
    expect(body).toEqual({
      status: 'success',
      payload: {
        messages: [
          {
            type: 'transactional',
            campaign_id: campaignId,
            code: smsCode,
            date: '2026-01-16',
            sent_at: day2,
            subject: 'Welcome Ann',
            body: 'Hi',
            url: null,
            icon: null,
            picture: null,
            statistics: noStats,
          },
          {
            type: 'transactional',
            campaign_id: campaignId,
            code: smsCode,
            date: '2026-01-16',
            sent_at: day2,
            subject: null,
            body: 'Hi Ann',
            url: null,
            icon: null,
            picture: null,
            statistics: noStats,
          },
          {
            type: 'transactional',
            campaign_id: campaignId,
            code: emailCode,
            date: '2026-01-15',
            sent_at: day1,
            subject: 'Welcome Ann',
            body: 'Hi',
            url: null,
            icon: null,
            picture: null,
            statistics: { ...noStats, opened: true, clicked: true, purchased: true },
          },
        ],
      },
    });
  });

  it('filters by channel, type (chain = trigger), date_from, and pages', async () => {
    const sms = await expectOk(s.get('/notifications', { phone: '+7 900 123-45-67', channel: 'sms' }));
    expect((sms.payload.messages as Array<{ code: string }>).map((m) => m.code)).toEqual([smsCode]);
    const chains = await expectOk(s.get('/notifications', { email: 'ann@example.org', type: 'trigger,chain' }));
    expect(chains.payload.messages).toEqual([]);
    const recent = await expectOk(s.get('/notifications', { email: 'ann@example.org', date_from: '2026-01-16' }));
    expect(recent.payload.messages).toHaveLength(2);
    const page2 = await expectOk(s.get('/notifications', { email: 'ann@example.org', limit: '2', page: '2' }));
    expect((page2.payload.messages as Array<{ code: string }>).map((m) => m.code)).toEqual([emailCode]);
    const unknown = await expectOk(s.get('/notifications', { email: 'nobody@example.org' }));
    expect(unknown).toEqual({ status: 'success', payload: { messages: [] } });
  });

  it('refuses bad parameters in the status envelope', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ email: 'ann@example.org', limit: '51' }, 422, 'Parameter `limit` must be an integer from 1 to 50.'],
      [{ email: 'ann@example.org', page: '0' }, 422, 'Parameter `page` must be an integer from 1 to 1000000.'],
      [
        { email: 'ann@example.org', channel: 'fax' },
        422,
        'Parameter `channel` must be a comma-separated list of email, sms, mobile_push, web_push, telegram, whatsapp, max, wallet.',
      ],
      [{}, 422, 'Identifier is not valid'],
      [{ email: 'ann@example.org', shop_secret: 'wrong' }, 401, 'Invalid secret key'],
    ];
    for (const [query, status, message] of cases) {
      const r = await s.get('/notifications', query);
      expect(r.statusCode).toBe(status);
      expect(r.json()).toEqual({ status: 'error', payload: { message } });
    }
  });

  it('counts sent and opened for one channel and type', async () => {
    const body = await expectOk(
      s.get('/notifications/counters', { email: 'ann@example.org', channel: 'email', type: 'transactional', date_from: '2026-01-01' }),
    );
    expect(body).toEqual({ status: 'success', payload: { counters: { sent: 2, opened: 1 } } });
    const later = await expectOk(
      s.get('/notifications/counters', { email: 'ann@example.org', channel: 'email', type: 'transactional', date_from: '2026-01-16' }),
    );
    expect(later.payload.counters).toEqual({ sent: 1, opened: 0 });
    expect((await s.get('/notifications/counters', { email: 'ann@example.org', channel: 'email', type: 'transactional' })).statusCode).toBe(
      422,
    );
  });

  it('extended counters key every requested channel by type; a type without messages is an empty object', async () => {
    const body = await expectOk(
      s.get('/notifications/counters/extended', {
        email: 'ann@example.org',
        channel: 'email,sms,web_push',
        type: 'bulk,chain,transactional',
        date_from: '2026-01-01',
      }),
    );
    expect(body).toEqual({
      status: 'success',
      payload: {
        counters: {
          channels: {
            email: { bulk: {}, chain: {}, transactional: { sent: 2, opened: 1, clicked: 1 } },
            sms: { bulk: {}, chain: {}, transactional: { sent: 1, opened: 0, clicked: 0 } },
            web_push: { bulk: {}, chain: {}, transactional: {} },
          },
        },
      },
    });
  });

  it('answers one message by code with each channel', async () => {
    const body = await expectOk(s.get(`/notifications/${smsCode}`, {}));
    expect(body).toEqual({
      status: 'success',
      payload: {
        message: {
          code: smsCode,
          type: 'transactional',
          campaign_id: campaignId,
          created_at: day2,
          status: 'sent',
          channels: [
            { channel: 'email', status: 'sent', sent_at: day2, statistics: noStats },
            { channel: 'sms', status: 'sent', sent_at: day2, statistics: noStats },
          ],
        },
      },
    });
    const missing = await s.get('/notifications/unknown-code', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 'error', payload: { message: 'Message is not found.' } });
  });
});
