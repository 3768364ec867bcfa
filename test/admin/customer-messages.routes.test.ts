import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectOk, messagingStack, type MessagingStack } from '../modules/messaging/messaging-setup.js';
import { expectAdminError } from './admin-assertions.js';

interface Message {
  code: string;
  channel: string;
  sent_at: string;
  subject: string | null;
  statistics: Record<string, boolean>;
}
interface Page {
  items: Message[];
  next_cursor: string | null;
}

describe.each(TEST_DIALECTS)("admin: a customer's messages on %s", (dialect) => {
  let s: MessagingStack;
  let annId: number;
  /** Ann's deliveries, newest first: [code, channel]. */
  const sent: Array<[string, string]> = [];

  const messages = (profileId: number | string, query = '') =>
    s.t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${s.shopId}/customers/${profileId}/messages${query}`,
      headers: s.t.adminHeaders,
    });

  async function send(body: Record<string, unknown>): Promise<string> {
    const code = (await expectOk(s.transact({ code: 'welcome', variables: { name: 'Ann' }, ...body }))).payload.code as string;
    await s.runner.runDue();
    return code;
  }

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'shop@example.org' }));
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'k' }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/welcome', {
        email: { subject: 'Welcome {{ name }}', html: '<p>Hi</p>' },
        sms: { body: 'Hi' },
      }),
    );
    // A phone-only customer gets an SMS, then turns out to be Ann: merged into her profile.
    const early = await send({ phone: '79001234567' });
    s.t.clock.advance(1000);
    const first = await send({ email: 'ann@example.org' });
    const [ann] = await s.t.app.services.identity.findProfiles(s.shopId, { email: 'ann@example.org' });
    const device = ann!.devices[0] ?? (await s.t.app.services.identity.createDevice(s.shopId)).did;
    await s.t.app.services.identity.resolveProfile(s.shopId, { did: device, email: 'ann@example.org', phone: '79001234567' });
    annId = (await s.t.app.services.identity.findProfiles(s.shopId, { email: 'ann@example.org' }))[0]!.id;
    // Four more messages, two of them in one millisecond; Ann has a phone now, so each is an email and an SMS (one code, two deliveries).
    const more: string[] = [];
    for (let i = 0; i < 3; i++) {
      if (i !== 2) s.t.clock.advance(1000);
      more.push(await send({ email: 'ann@example.org' }));
    }
    s.t.clock.advance(1000);
    const both = await send({ email: 'ann@example.org', phone: '79001234567' });
    await send({ email: 'bob@example.org' });
    const test = await send({ email: 'ann@example.org' });
    await s.t.db.db.updateTable('messaging_deliveries').set({ test: 1 }).where('code', '=', test).execute();

    const tied = [more[1]!, more[2]!].sort();
    for (const code of [both, ...tied, more[0]!]) sent.push([code, 'email'], [code, 'sms']);
    sent.push([first, 'email'], [early, 'sms']);
    const rows = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select(['code', 'seq', 'channel'])
      .where('code', '=', both)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.channel)).toEqual(['email', 'sms']);
  });

  afterAll(async () => {
    await s?.t.close();
  });

  it('lists every message sent to the customer and to the profile merged into it, newest first, once each across pages', async () => {
    const seen: Message[] = [];
    let cursor: string | null = null;
    do {
      const res = await messages(annId, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Page>();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen.map((m) => [m.code, m.channel])).toEqual(sent);
  });

  it('answers each message with its type, campaign, text and statistics', async () => {
    const page = (await messages(annId)).json<Page>();
    expect(page.next_cursor).toBeNull();
    expect(page.items[0]).toEqual({
      code: sent[0]![0],
      type: 'transactional',
      campaign_id: expect.any(Number),
      channel: 'email',
      sent_at: new Date(s.t.clock.now()).toISOString(),
      subject: 'Welcome Ann',
      body: expect.any(String),
      url: null,
      icon: null,
      picture: null,
      statistics: {
        opened: false,
        clicked: false,
        hard_bounced: false,
        soft_bounced: false,
        complained: false,
        unsubscribed: false,
        purchased: false,
      },
    });
  });

  it("answers 404 for an unknown customer or another shop's, and 422 for a bad cursor", async () => {
    expectAdminError(await messages(999_999), 404, 'NOT_FOUND');
    const other = await createShopFixture(s.t.app.services);
    const res = await s.t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${other.shopId}/customers/${annId}/messages`,
      headers: s.t.adminHeaders,
    });
    expectAdminError(res, 404, 'NOT_FOUND');
    for (const query of ['?cursor=WzEsMl0', '?cursor=!', '?limit=201', '?page=2']) {
      expectAdminError(await messages(annId, query), 422, 'VALIDATION_FAILED');
    }
  });
});
