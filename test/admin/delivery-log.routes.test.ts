import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectOk, messagingStack, type MessagingStack } from '../modules/messaging/messaging-setup.js';
import { expectAdminError } from './admin-assertions.js';

interface Entry {
  code: string;
  seq: number;
  channel: string;
  status: string;
  to: string;
  profile_id: number;
  test: boolean;
  created_at: string;
  outcomes: Record<string, string | null>;
}
interface Page {
  items: Entry[];
  next_cursor: string | null;
}

describe.each(TEST_DIALECTS)('admin: the delivery log on %s', (dialect) => {
  let s: MessagingStack;
  const codes: Record<string, string> = {};

  const search = async (query: string, shop?: string): Promise<Page> =>
    expectOk(
      s.t.app.inject({
        method: 'GET',
        url: `/admin/v1/shops/${shop ?? s.shopId}/messages/search${query}`,
        headers: s.t.adminHeaders,
      }),
    ) as Promise<Page>;

  async function send(name: string, body: Record<string, unknown>, code = 'welcome'): Promise<void> {
    codes[name] = (await expectOk(s.transact({ code, variables: { name }, ...body }))).payload.code as string;
    await s.runner.runDue();
    s.t.clock.advance(1000);
  }

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'shop@example.org' }));
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'k' }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/welcome', {
        email: {
          subject: 'Welcome {{ name }}',
          html: '<p>Hi {{ name }}, <a href="https://shop.example/a">shop</a></p>',
          text: 'Hi {{ name }}',
        },
        sms: { body: 'Hi {{ name }}' },
      }),
    );
    await send('ann', { email: 'ann@example.org', phone: '79001110000' });
    s.sms.answer({ ok: false, kind: 'permanent', message: 'Number is barred' });
    await send('bob', { email: 'bob@example.org', phone: '79002220000' });
    // A temporary failure, then a send after the retry's wait.
    s.email.answer({ ok: false, kind: 'temporary', message: 'Greylisted, try later' });
    await send('cid', { email: 'cid@example.org' });
    s.t.clock.advance(60_000);
    await s.runner.runDue();
    // A test send of the mailing to Ann: her email and, her profile having a phone, an SMS.
    codes.test = (
      await expectOk(s.admin('POST', '/mailings/transactional/welcome/test', { email: 'ann@example.org', variables: { name: 'ann' } }))
    ).code as string;
    await s.runner.runDue();
  });

  afterAll(async () => {
    await s.t.close();
  });

  it('pages through every delivery newest first, one at a time, without a repeat or a gap', async () => {
    const all = await search('?limit=200');
    expect(all.items).toHaveLength(7);
    expect(all.next_cursor).toBeNull();
    const stamps = all.items.map((e) => e.created_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await search(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((e) => `${e.code}.${e.seq}`));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((e) => `${e.code}.${e.seq}`));
  });

  it('filters by customer, code, channel, status, type, test, outcome and period', async () => {
    const ann = await search('?email=ann@example.org');
    expect(new Set(ann.items.map((e) => e.code))).toEqual(new Set([codes.ann, codes.test]));
    const profileId = ann.items.find((e) => e.code === codes.ann)!.profile_id;
    expect((await search(`?profile_id=${profileId}`)).items.map((e) => e.code).sort()).toEqual(
      [codes.ann, codes.ann, codes.test, codes.test].sort(),
    );
    expect((await search('?phone=%2B7 900 222-00-00')).items.map((e) => `${e.code}.${e.channel}`).sort()).toEqual(
      [`${codes.bob}.email`, `${codes.bob}.sms`].sort(),
    );
    expect((await search(`?code=${codes.bob}`)).items).toHaveLength(2);
    expect((await search('?channel=sms')).items.map((e) => e.code).sort()).toEqual([codes.ann, codes.bob, codes.test].sort());
    expect((await search('?status=failed')).items.map((e) => `${e.code}.${e.channel}`)).toEqual([`${codes.bob}.sms`]);
    expect((await search('?test=true')).items.map((e) => e.code)).toEqual([codes.test, codes.test]);
    expect((await search('?test=false&channel=email')).items).toHaveLength(3);
    expect((await search('?type=chain')).items).toEqual([]);

    await s.t.app.services.messageOutcomes.bounce(s.shopId, { code: codes.cid!, type: 'soft' });
    expect((await search('?outcome=bounced')).items.map((e) => e.code)).toEqual([codes.cid]);
    expect((await search('?outcome=hard_bounced')).items).toEqual([]);

    const bob = (await search(`?code=${codes.bob}`)).items[0]!;
    const at = Date.parse(bob.created_at);
    const period = await search(`?from=${new Date(at).toISOString()}&to=${new Date(at + 1).toISOString()}`);
    expect(period.items.map((e) => e.code)).toEqual([codes.bob, codes.bob]);
  });

  it('shows one message whole: the content as rendered, each try with its answer, and the outcomes', async () => {
    const cid = await expectOk(s.admin('GET', `/messages/${codes.cid}`));
    expect(cid).toMatchObject({ code: codes.cid, type: 'transactional', mailing_code: 'welcome', test: false });
    const [email] = cid.deliveries;
    expect(email).toMatchObject({
      seq: 0,
      channel: 'email',
      status: 'sent',
      to: 'cid@example.org',
      attempts: 2,
      content: { subject: 'Welcome cid', text: 'Hi cid', html: '<p>Hi cid, <a href="https://shop.example/a">shop</a></p>' },
    });
    expect(email.tries).toEqual([
      expect.objectContaining({ attempt: 1, vendor: 'smtp', outcome: 'temporary', answer: 'Greylisted, try later' }),
      expect.objectContaining({ attempt: 2, vendor: 'smtp', outcome: 'sent', answer: expect.stringMatching(/^m\d+$/) }),
    ]);
    expect(Date.parse(email.tries[1].at) - Date.parse(email.tries[0].at)).toBeGreaterThanOrEqual(60_000);
    expect(email.outcomes.soft_bounced_at).not.toBeNull();
    expect(email.outcomes.opened_at).toBeNull();

    const bob = await expectOk(s.admin('GET', `/messages/${codes.bob}`));
    const sms = (bob.deliveries as Array<Entry & { tries: unknown[] }>).find((d) => d.channel === 'sms')!;
    expect(sms).toMatchObject({ status: 'failed', error: 'Number is barred', content: { text: 'Hi bob', html: null } });
    expect(sms.tries).toEqual([expect.objectContaining({ attempt: 1, outcome: 'permanent', answer: 'Number is barred' })]);
  });

  it("keeps one shop out of another's messages: by code it is 404, and a search finds nothing", async () => {
    const other = await createShopFixture(s.t.app.services);
    const r = await s.t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${other.shopId}/messages/${codes.ann}`,
      headers: s.t.adminHeaders,
    });
    expect(expectAdminError(r, 404, 'NOT_FOUND')).toBe('Message is not found.');
    expect((await search(`?code=${codes.ann}`, other.shopId)).items).toEqual([]);
    expect((await search('?email=ann@example.org', other.shopId)).items).toEqual([]);
  });

  it('refuses bad input with 422 naming the parameter', async () => {
    const bad = async (query: string, words: RegExp) => {
      const r = await s.t.app.inject({
        method: 'GET',
        url: `/admin/v1/shops/${s.shopId}/messages/search${query}`,
        headers: s.t.adminHeaders,
      });
      expect(expectAdminError(r, 422, 'VALIDATION_FAILED')).toMatch(words);
    };
    await bad('?cursor=not-a-cursor', /`cursor`/);
    await bad('?limit=201', /`limit`/);
    await bad('?limit=0', /`limit`/);
    await bad('?channel=fax', /`channel`/);
    await bad('?status=lost', /`status`/);
    await bad(`?code=${'x'.repeat(65)}`, /`code`/);
    await bad('?email=a@b.org&profile_id=3', /`profile_id`/);
    await bad('?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', /`to`/);
    await bad('?from=yesterday', /`from`/);
    await bad('?profile_id=abc', /`profile_id`/);
    const long = await s.t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${s.shopId}/messages/${'x'.repeat(65)}`,
      headers: s.t.adminHeaders,
    });
    expect(expectAdminError(long, 422, 'VALIDATION_FAILED')).toMatch(/`code`/);
  });
});
