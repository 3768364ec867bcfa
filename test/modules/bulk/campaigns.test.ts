import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startSmtpPeer, type SmtpPeer } from '../../helpers/smtp-peer.js';
import { expectOk, TEST_SECRET_KEY } from '../messaging/messaging-setup.js';

/**
 * Campaigns (issue 36 part 4) on both databases, sent by the shipped SMTP vendor to a
 * real local SMTP server: the reachable audience before sending, every counter of a
 * 1,000-member send against what the peer received, an A/B test won by clicks made
 * through the real click-tracking URLs and its winner sent to the rest (nobody twice),
 * and the refusals: a campaign that reaches nobody, bad splits and rules.
 */

const PUBLIC_URL = 'https://patron.example.org';
const REFUSED = ['refused0@example.org', 'refused1@example.org', 'refused2@example.org'];

describe.each(TEST_DIALECTS)('campaigns on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let runner: JobRunner;
  let shopId: string;
  let secret: string;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ rcptReplies: Object.fromEntries(REFUSED.map((a) => [a, '550 5.1.1 No such user'])) });
    t = await createTestApp({
      dialect,
      env: { PATRON_SECRET_KEY: TEST_SECRET_KEY, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1', PATRON_PUBLIC_URL: PUBLIC_URL },
    });
    runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
    ({ shopId, secret } = await createShopFixture(t.app.services));
    await expectOk(admin('PUT', '/channels/email', { smtp_url: `smtp://127.0.0.1:${smtp.port}`, from: 'Shop <shop@example.org>' }));
  });

  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  function admin(method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) {
    return t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  }

  /** A segment filled through the public import, its job run. */
  async function segmentOf(name: string, audience: object[]): Promise<number> {
    const { id } = await expectOk(admin('POST', '/segments', { name }), 201);
    for (let i = 0; i < audience.length; i += 500) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/import/audience',
        payload: { shop_id: shopId, shop_secret: secret, segment_id: id, audience: audience.slice(i, i + 500) },
      });
      expect(r.statusCode, r.body).toBeLessThan(300);
    }
    await runner.runDue();
    expect((await expectOk(admin('GET', `/segments/${id}`))).size).toBe(audience.length);
    return id as number;
  }

  /** Runs due jobs until the mailing is done (the SMTP sends take real time). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function runUntilDone(id: number): Promise<any> {
    for (let round = 0; round < 50; round += 1) {
      await runner.runDue();
      const view = await expectOk(admin('GET', `/mailings/bulk/${id}`));
      if (view.status === 'done') return view;
    }
    throw new Error(`Mailing ${id} did not finish`);
  }

  const parsed = new Map<number, ParsedMail>();
  async function mailAt(i: number): Promise<ParsedMail> {
    let mail = parsed.get(i);
    if (!mail) {
      mail = await simpleParser(smtp.received[i]!.raw);
      parsed.set(i, mail);
    }
    return mail;
  }
  const pathOf = (url: string) => {
    const u = new URL(url.replace(/&amp;/g, '&'));
    return `${u.pathname}${u.search}`;
  };
  const clickUrl = (mail: ParsedMail) => /href="([^"]+\/c\?[^"]+)"/.exec(String(mail.html))![1]!;
  const pixelUrl = (mail: ParsedMail) => /<img src="([^"]+\/o\?[^"]+)"/.exec(String(mail.html))![1]!;
  const codeOf = (mail: ParsedMail) => /\/m\/[^.]+\.([A-Za-z0-9_-]+)\//.exec(clickUrl(mail))![1]!;
  const subjectsFrom = (start: number) => smtp.received.slice(start).map((m) => /^Subject: (.*)$/m.exec(m.raw.toString('utf8'))?.[1]);

  it('counts the reachable audience, sends 1,000 members and every counter matches what the peer received', async () => {
    const records = Array.from({ length: 1000 }, (_, i) => {
      const email = i < REFUSED.length ? (REFUSED[i] as string) : `m${i}@example.org`;
      return i >= 100 && i < 105 ? { email, email_bulk: false } : { email };
    });
    const segment = await segmentOf('Thousand', records);

    const before = await expectOk(admin('GET', `/mailings/bulk/audience?segment_ids=${segment},${segment}&channels=email,sms`));
    expect(before).toMatchObject({
      members: 1000,
      reachable: 995,
      channels: {
        email: { configured: true, with_address: 1000, unsubscribed: 5, bounced: 0, over_cap: 0, reachable: 995 },
        sms: { configured: false, with_address: 0, reachable: 0 },
      },
    });

    // A cap of one bulk email a day: this mailing fits, and counts each member's day.
    await expectOk(admin('PUT', '/messaging/limits', { email: { bulk_per_day: 1 } }));
    const start = smtp.received.length;
    const created = await expectOk(
      admin('POST', '/mailings/bulk', {
        name: 'Thousand',
        segment_ids: [segment],
        email: { subject: 'Sale', html: '<p><a href="https://shop.example/sale">Sale</a></p>' },
      }),
      201,
    );
    const done = await runUntilDone(created.id);
    const received = smtp.received.slice(start);
    const addresses = received.flatMap((m) => m.rcptTo);
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(received).toHaveLength(992);
    expect(done).toMatchObject({
      status: 'done',
      recipients: 1000,
      sent: received.length,
      skipped: 5,
      failed: REFUSED.length,
      pending: 0,
      skipped_by: { unreachable: 0, unsubscribed: 5, over_cap: 0 },
      progress: { to_send: 1000, done: 1000, percent: 100, ab_phase: null, decide_at: null },
    });
    expect(done.results.total).toMatchObject({ messaged: 995, sent: received.length, delivered: received.length, failed: 3, bounced: 0 });

    // What readers do with what they received: open, click, unsubscribe, bounce, buy.
    for (let i = 0; i < 6; i += 1)
      expect((await t.app.inject({ method: 'GET', url: pathOf(pixelUrl(await mailAt(start + i))) })).statusCode).toBe(200);
    for (let i = 3; i < 9; i += 1)
      expect((await t.app.inject({ method: 'GET', url: pathOf(clickUrl(await mailAt(start + i))) })).statusCode).toBe(302);
    const header = (await mailAt(start + 9)).headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/\r?\n[ \t]+/g, ' ');
    const unsubscribe = /<([^>]+)>/.exec(String(header))![1]!;
    expect((await t.app.inject({ method: 'POST', url: pathOf(unsubscribe), payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(200);
    expect(await t.app.services.messageOutcomes.bounce(shopId, { code: codeOf(await mailAt(start + 8)), type: 'hard' })).toBe(true);
    const did = (await t.app.inject({ method: 'GET', url: `/init?shop_id=${shopId}` })).json().did as string;
    const purchase = await t.app.inject({
      method: 'POST',
      url: '/push',
      payload: {
        shop_id: shopId,
        did,
        event: 'purchase',
        items: [{ id: 'A', amount: 2, price: 10 }],
        order_id: 'CAMPAIGN-1',
        order_price: 123.45,
        recommended_by: 'bulk',
        recommended_code: codeOf(await mailAt(start + 4)),
      },
    });
    expect(purchase.statusCode, purchase.body).toBe(200);
    await runner.runDue();

    const after = await expectOk(admin('GET', `/mailings/bulk/${created.id}`));
    const total = {
      messaged: 995,
      sent: 992,
      delivered: 991,
      failed: 3,
      bounced: 1,
      opened: 9,
      clicked: 6,
      unsubscribed: 1,
      purchases: 1,
      revenue: 123.45,
    };
    expect(after.results.total).toEqual({
      ...total,
      open_rate: Math.round((9 / 991) * 10_000) / 10_000,
      click_rate: Math.round((6 / 991) * 10_000) / 10_000,
    });
    expect(after.results.variants).toEqual([{ variant: '', share: null, ...after.results.total }]);
    expect(after.results.rest).toBeNull();

    // The refused and the bounced are on the dead list now, the unsubscribed has email_bulk off, the others had today's one.
    const later = await expectOk(admin('GET', `/mailings/bulk/audience?segment_ids=${segment}&channels=email`));
    expect(later).toMatchObject({ members: 1000, reachable: 0 });
    expect(later.channels.email).toEqual({
      configured: true,
      with_address: 1000,
      unsubscribed: 6,
      bounced: 4,
      over_cap: 990,
      reachable: 0,
    });
    const again = await admin('POST', '/mailings/bulk', { name: 'Again', segment_ids: [segment], email: { subject: 'x', html: 'x' } });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.message).toBe(
      'None of the 1000 members of the segments can be reached (email: 6 unsubscribed, 4 bounced or complained, 990 over the cap).',
    );
    t.clock.advance(24 * 3_600_000);
    const tomorrow = await expectOk(admin('GET', `/mailings/bulk/audience?segment_ids=${segment}&channels=email`));
    expect(tomorrow.channels.email).toMatchObject({ over_cap: 0, reachable: 990 });
    await expectOk(admin('PUT', '/messaging/limits', {}));
  }, 120_000);

  it('tests two variants on a share, picks the winner by clicks through the tracked links and sends it to the rest, nobody twice', async () => {
    const segment = await segmentOf(
      'AB',
      Array.from({ length: 200 }, (_, i) => ({ email: `ab${i}@example.org` })),
    );
    const start = smtp.received.length;
    const created = await expectOk(
      admin('POST', '/mailings/bulk', {
        name: 'AB',
        segment_ids: [segment],
        email: { subject: 'Base', html: '<p><a href="https://shop.example/new">New</a></p>' },
        ab: {
          test_share: 10,
          variants: [
            { share: 50, email: { subject: 'Variant A' } },
            { share: 50, email: { subject: 'Variant B' } },
          ],
          metric: 'clicks',
          after_hours: 2,
        },
      }),
      201,
    );
    for (let round = 0; round < 20 && smtp.received.length - start < 20; round += 1) await runner.runDue();
    const testing = await expectOk(admin('GET', `/mailings/bulk/${created.id}`));
    expect(testing).toMatchObject({ status: 'sending', sent: 20, held: 180, winner: null });
    expect(testing.progress).toMatchObject({ to_send: 200, done: 20, percent: 10, ab_phase: 'waiting' });
    expect(Date.parse(testing.progress.decide_at)).toBeGreaterThanOrEqual(t.clock.now() + 2 * 3_600_000);
    const tested = testing.results.variants as Array<{ variant: string; share: number; sent: number }>;
    expect(tested.map((v) => [v.variant, v.share, v.sent])).toEqual([
      ['a', 50, 10],
      ['b', 50, 10],
    ]);
    const subjects = subjectsFrom(start);
    expect(subjects.filter((x) => x === 'Variant A')).toHaveLength(10);
    expect(subjects.filter((x) => x === 'Variant B')).toHaveLength(10);

    // One reader of A clicks, three of B (one of them twice): B has the better click rate.
    const indexesOf = (subject: string) => subjects.flatMap((x, i) => (x === subject ? [start + i] : []));
    const clicks = [indexesOf('Variant A')[0]!, ...indexesOf('Variant B').slice(0, 3), indexesOf('Variant B')[0]!];
    for (const i of clicks) expect((await t.app.inject({ method: 'GET', url: pathOf(clickUrl(await mailAt(i))) })).statusCode).toBe(302);

    t.clock.advance(2 * 3_600_000 - 60_000);
    await runner.runDue();
    expect((await expectOk(admin('GET', `/mailings/bulk/${created.id}`))).winner).toBeNull();
    t.clock.advance(60_000);
    const done = await runUntilDone(created.id);
    expect(done).toMatchObject({ status: 'done', recipients: 200, sent: 200, held: 0, winner: 'b' });
    expect(done.progress).toMatchObject({ to_send: 200, done: 200, percent: 100, ab_phase: 'done' });
    expect(done.results.variants).toMatchObject([
      { variant: 'a', messaged: 10, clicked: 1, click_rate: 0.1 },
      { variant: 'b', messaged: 10, clicked: 3, click_rate: 0.3 },
    ]);
    expect(done.results.rest).toMatchObject({ variant: 'b', messaged: 180, sent: 180, clicked: 0 });
    expect(done.results.total).toMatchObject({ messaged: 200, sent: 200, clicked: 4 });
    const rest = subjectsFrom(start).slice(20);
    expect(rest).toEqual(Array.from({ length: 180 }, () => 'Variant B'));

    // The decision and the rest's last page run again (a job redelivered): nothing more goes out.
    await t.app.services.bulkMailings.decide({ shopId, mailingId: created.id });
    await t.app.services.bulkExpansion.runPage({ shopId, mailingId: created.id, page: 1 });
    await runner.runDue();
    const addresses = smtp.received.slice(start).flatMap((m) => m.rcptTo);
    expect(addresses).toHaveLength(200);
    expect(new Set(addresses).size).toBe(200);
    // Each message records the variant it carried.
    const variants = await t.db.db
      .selectFrom('messaging_messages')
      .select(['mailing_code', (eb) => eb.fn.countAll().as('n')])
      .where('shop_id', '=', shopId)
      .where('mailing_id', '=', created.id)
      .where('type', '=', 'bulk')
      .groupBy('mailing_code')
      .orderBy('mailing_code')
      .execute();
    expect(variants.map((v) => [v.mailing_code, Number(v.n)])).toEqual([
      [`${created.id}:a`, 10],
      [`${created.id}:b`, 190],
    ]);
  }, 120_000);

  it('refuses a campaign that would reach nobody, or unknown segments, with the reason', async () => {
    const empty = (await expectOk(admin('POST', '/segments', { name: 'Empty' }), 201)).id as number;
    const phones = await segmentOf('Phones only', [{ phone: '79001112233' }, { phone: '79001112244' }]);
    const mail = { email: { subject: 'x', html: 'x' } };
    const refusal = async (body: object) => {
      const r = await admin('POST', '/mailings/bulk', { name: 'Nobody', ...body });
      expect(r.statusCode, r.body).toBe(422);
      return r.json().error.message as string;
    };
    expect(await refusal({ segment_ids: [empty], ...mail })).toBe(`Segment ${empty} has no members.`);
    expect(await refusal({ segment_ids: [phones], ...mail })).toBe(
      'None of the 2 members of the segments can be reached (email: 2 without an address).',
    );
    expect(await refusal({ segment_ids: [phones], sms: { body: 'x' } })).toBe(
      'None of the 2 members of the segments can be reached (sms is not configured).',
    );
    expect(await refusal({ segment_ids: [phones, 99_999], ...mail })).toBe('Segment 99999 does not exist.');
    const audience = await admin('GET', `/mailings/bulk/audience?segment_ids=${empty},99999`);
    expect(audience.statusCode).toBe(422);
    expect(audience.json().error.message).toBe('Segment 99999 does not exist.');
    expect((await expectOk(admin('GET', `/mailings/bulk/audience?segment_ids=${empty}`))).members).toBe(0);
    const stored = await t.db.db
      .selectFrom('bulk_mailings')
      .select('id')
      .where('shop_id', '=', shopId)
      .where('name', '=', 'Nobody')
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses bad A/B input at the field', async () => {
    const segment = await segmentOf('Bad input', [{ email: 'bad@example.org' }]);
    const ab = { test_share: 20, variants: [{ share: 50 }, { share: 50 }], metric: 'opens', after_hours: 4 };
    const refused = async (split: object) => {
      const r = await admin('POST', '/mailings/bulk', {
        name: 'Bad',
        segment_ids: [segment],
        email: { subject: 'x', html: 'x' },
        ab: split,
      });
      expect(r.statusCode, r.body).toBe(422);
      return r.json().error.message as string;
    };
    expect(await refused({ ...ab, variants: [{ share: 60 }, { share: 50 }] })).toBe(
      'The shares of `ab.variants` add up to 110; they must add up to 100.',
    );
    expect(await refused({ ...ab, variants: [{ share: 30 }, { share: 30 }] })).toMatch(/`ab.variants` add up to 60/);
    expect(await refused({ ...ab, variants: Array.from({ length: 5 }, () => ({ share: 20 })) })).toMatch(/`ab.variants`/);
    expect(await refused({ ...ab, variants: [{ share: 100 }] })).toMatch(/`ab.variants`/);
    expect(await refused({ ...ab, after_hours: 10 * 365 * 24 })).toMatch(/`ab.after_hours`/);
    expect(await refused({ ...ab, test_share: 0 })).toMatch(/`ab.test_share`/);
    expect(await refused({ ...ab, metric: 'revenue' })).toMatch(/`ab.metric`/);
    expect(await refused({ ...ab, variants: [{ share: 50, email: { subject: '{% if %}' } }, { share: 50 }] })).toMatch(/does not parse/);
    const mailings = await expectOk(admin('GET', '/mailings/bulk?limit=100'));
    expect((mailings.mailings as Array<{ name: string }>).filter((m) => m.name === 'Bad')).toEqual([]);
  });

  it('pages the mailings newest first with a cursor', async () => {
    const first = await expectOk(admin('GET', '/mailings/bulk?limit=1'));
    expect(first.mailings).toHaveLength(1);
    expect(first.mailings[0].name).toBe('AB');
    expect(first.mailings[0].progress).toBeUndefined();
    const second = await expectOk(admin('GET', `/mailings/bulk?limit=1&cursor=${first.next_cursor}`));
    expect((second.mailings as Array<{ name: string }>).map((m) => m.name)).toEqual(['Thousand']);
    expect(second.next_cursor).toBeNull();
    expect((await admin('GET', '/mailings/bulk?cursor=bad!')).statusCode).toBe(422);
    expect((await admin('GET', '/mailings/bulk?limit=101')).statusCode).toBe(422);
  });
});
