import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkExpansion } from '../../../src/modules/bulk/bulk-expand.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';
import { Members } from './bulk-setup.js';

/**
 * Bulk mailings end to end on both databases (issue 17 parts 3 and 4): segments checked,
 * members of several segments mailed once, flags, unreachable members and caps counted
 * as skipped, scheduling, throttle, quiet hours, the A/B winner, and pages run twice.
 */

const MONDAY_NOON_MOSCOW = Date.UTC(2026, 0, 5, 9, 0);

describe.each(TEST_DIALECTS)('bulk mailings on %s', (dialect) => {
  let s: MessagingStack;
  let members: Members;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    s.t.clock.set(MONDAY_NOON_MOSCOW);
    members = new Members(s);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/mailings/transactional/receipt', { email: { subject: 'Receipt', html: '<p>r</p>' } }));
  });

  afterAll(async () => {
    await s.t.close();
  });

  const post = (body: object) => s.admin('POST', '/mailings/bulk', body);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const read = async (id: number): Promise<any> => expectOk(s.admin('GET', `/mailings/bulk/${id}`));
  const mail = { email: { subject: 'Sale for {{ profile.email }}', html: '<p>Sale</p>' } };
  const sentTo = (subject: string) =>
    s.email.sent
      .filter((m) => m.message.subject.startsWith(subject))
      .map((m) => m.message.to)
      .sort();

  it('refuses an unknown segment, no template, shares over 100 and a template that does not parse; 404 for an unknown mailing', async () => {
    const seg = await members.segment('Refusals');
    const unknown = await post({ name: 'x', segment_ids: [seg, 999], ...mail });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.message).toBe('Segment 999 does not exist.');
    expect((await post({ name: 'x', segment_ids: [seg] })).statusCode).toBe(422);
    const shares = await post({
      name: 'x',
      segment_ids: [seg],
      ...mail,
      ab: { test_share: 20, variants: [{ share: 60 }, { share: 50 }], metric: 'opens', after_hours: 1 },
    });
    expect(shares.statusCode).toBe(422);
    expect((await post({ name: 'x', segment_ids: [seg], email: { subject: '{% if %}', html: 'x' } })).statusCode).toBe(422);
    expect((await post({ name: 'x', segment_ids: [], ...mail })).statusCode).toBe(422);
    expect((await s.admin('GET', '/mailings/bulk/4242')).statusCode).toBe(404);
  });

  it('refuses a mailing to a segment of no profiles, naming it, and writes nothing', async () => {
    const empty = await members.segment('Empty');
    const refused = await post({ name: 'Nobody', segment_ids: [empty], ...mail });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toEqual({ code: 'VALIDATION_FAILED', message: `Segment ${empty} has no members.` });
    const stored = await s.t.db.db
      .selectFrom('bulk_mailings')
      .select('id')
      .where('shop_id', '=', s.shopId)
      .where('name', '=', 'Nobody')
      .execute();
    expect(stored).toEqual([]);
  });

  it('mails every member of overlapping segments once and counts the skipped by reason', async () => {
    const a = await members.segment('A');
    const b = await members.segment('B');
    await members.add('ann@example.org', [a]);
    await members.add('bob@example.org', [a, b]);
    await members.add('cat@example.org', [b]);
    await members.add(null, [a]);
    await members.add('off@example.org', [b], { bulkOff: true });
    const created = await expectOk(
      post({ name: 'Overlap', segment_ids: [a, b], email: { subject: 'Overlap {{ profile.email }}', html: '<p>o</p>' } }),
      201,
    );
    await s.runner.runDue();
    expect(sentTo('Overlap')).toEqual(['ann@example.org', 'bob@example.org', 'cat@example.org']);
    expect(await read(created.id)).toMatchObject({
      status: 'done',
      recipients: 5,
      sent: 3,
      skipped: 2,
      failed: 0,
      skipped_by: { unreachable: 1, unsubscribed: 1, over_cap: 0 },
    });
    const messages = await s.t.db.db
      .selectFrom('messaging_messages')
      .select(['type', 'mailing_id'])
      .where('shop_id', '=', s.shopId)
      .where('type', '=', 'bulk')
      .where('mailing_id', '=', created.id)
      .execute();
    expect(messages).toHaveLength(3);
  });

  it('waits for send_at while scheduled', async () => {
    const seg = await members.segment('Later');
    await members.add('later@example.org', [seg]);
    const sendAt = new Date(s.t.clock.now() + 3_600_000).toISOString();
    const created = await expectOk(
      post({ name: 'Later', segment_ids: [seg], send_at: sendAt, email: { subject: 'Later', html: 'x' } }),
      201,
    );
    expect(created.status).toBe('scheduled');
    await s.runner.runDue();
    expect(sentTo('Later')).toEqual([]);
    expect((await read(created.id)).status).toBe('scheduled');
    s.t.clock.advance(3_600_000);
    await s.runner.runDue();
    expect(sentTo('Later')).toEqual(['later@example.org']);
    expect((await read(created.id)).status).toBe('done');
  });

  it('throttles to the given recipients a minute', async () => {
    const seg = await members.segment('Throttle');
    for (const n of [1, 2, 3, 4, 5]) await members.add(`t${n}@example.org`, [seg]);
    const created = await expectOk(
      post({ name: 'Slow', segment_ids: [seg], throttle_per_minute: 2, email: { subject: 'Slow', html: 'x' } }),
      201,
    );
    await s.runner.runDue();
    expect(sentTo('Slow')).toHaveLength(2);
    expect(await read(created.id)).toMatchObject({ status: 'sending', sent: 2, pending: 3 });
    s.t.clock.advance(60_000);
    await s.runner.runDue();
    expect(sentTo('Slow')).toHaveLength(4);
    s.t.clock.advance(60_000);
    await s.runner.runDue();
    expect(sentTo('Slow')).toHaveLength(5);
    expect(await read(created.id)).toMatchObject({ status: 'done', sent: 5, recipients: 5 });
  });

  it('runs a page once however often its job runs, each page resuming from the stored cursor', async () => {
    const seg = await members.segment('Pages');
    for (const n of [1, 2, 3, 4, 5]) await members.add(`p${n}@example.org`, [seg]);
    const created = await expectOk(post({ name: 'Pages', segment_ids: [seg], email: { subject: 'Pages', html: 'x' } }), 201);
    const { db, clock, app } = s.t;
    const small = new BulkExpansion({
      db,
      clock,
      writer: app.services.messageWriter,
      limits: app.services.messagingLimits,
      jobs: app.services.jobs,
      pageSize: 2,
    });
    for (const page of [0, 0, 1, 2, 1, 3]) await small.runPage({ shopId: s.shopId, mailingId: created.id, page });
    const rows = await db.db
      .selectFrom('bulk_mailings')
      .select(['pages', 'stage'])
      .where('shop_id', '=', s.shopId)
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(rows).toEqual({ pages: 3, stage: 'end' });
    await s.runner.runDue();
    expect(sentTo('Pages')).toEqual(['p1@example.org', 'p2@example.org', 'p3@example.org', 'p4@example.org', 'p5@example.org']);
  });

  it('skips members over a daily cap, never capping transactional messages', async () => {
    const seg = await members.segment('Capped');
    await members.add('cap@example.org', [seg]);
    await expectOk(s.admin('PUT', '/messaging/limits', { email: { bulk_per_day: 1, bulk_per_week: 5 } }));
    const first = await expectOk(post({ name: 'Cap 1', segment_ids: [seg], email: { subject: 'Cap', html: 'x' } }), 201);
    const second = await expectOk(post({ name: 'Cap 2', segment_ids: [seg], email: { subject: 'Cap', html: 'x' } }), 201);
    await s.runner.runDue();
    // The two mailings' pages may run at once: whichever counts first mails, the other skips.
    const both = [await read(first.id), await read(second.id)].sort((x, y) => y.sent - x.sent);
    expect(both[0]).toMatchObject({ status: 'done', recipients: 1, sent: 1, skipped: 0 });
    expect(both[1]).toMatchObject({ status: 'done', recipients: 1, sent: 0, skipped: 1, skipped_by: { over_cap: 1 } });
    await expectOk(s.transact({ code: 'receipt', email: 'cap@example.org' }));
    await s.runner.runDue();
    expect(sentTo('Receipt')).toContain('cap@example.org');
    // The next calendar day of Moscow counts afresh.
    s.t.clock.advance(24 * 3_600_000);
    const third = await expectOk(post({ name: 'Cap 3', segment_ids: [seg], email: { subject: 'Cap', html: 'x' } }), 201);
    await s.runner.runDue();
    expect(await read(third.id)).toMatchObject({ sent: 1 });
    await expectOk(s.admin('PUT', '/messaging/limits', {}));
  });

  it('holds bulk deliveries in quiet hours until they end, transactional ones not', async () => {
    await expectOk(s.admin('PUT', '/messaging/limits', { email: { quiet_hours: { from: '22:00', to: '08:00' } } }));
    expect(await expectOk(s.admin('GET', '/messaging/limits'))).toEqual({ email: { quiet_hours: { from: '22:00', to: '08:00' } } });
    const seg = await members.segment('Night');
    await members.add('night@example.org', [seg]);
    const now = s.t.clock.now();
    const nextLocal23 = now + ((23 * 60 - ((now / 60_000 + 180) % 1440) + 1440) % 1440) * 60_000;
    s.t.clock.set(nextLocal23);
    const created = await expectOk(post({ name: 'Night', segment_ids: [seg], email: { subject: 'Night', html: 'x' } }), 201);
    await expectOk(s.transact({ code: 'receipt', email: 'night@example.org' }));
    await s.runner.runDue();
    expect(sentTo('Night')).toEqual([]);
    expect(sentTo('Receipt')).toContain('night@example.org');
    expect(await read(created.id)).toMatchObject({ status: 'sending', pending: 1 });
    s.t.clock.advance(8 * 3_600_000);
    await s.runner.runDue();
    expect(sentTo('Night')).toEqual([]);
    s.t.clock.advance(3_600_000);
    await s.runner.runDue();
    expect(sentTo('Night')).toEqual(['night@example.org']);
    expect((await read(created.id)).status).toBe('done');
    await expectOk(s.admin('PUT', '/messaging/limits', {}));
  });

  it('refuses quiet hours that begin where they end', async () => {
    expect((await s.admin('PUT', '/messaging/limits', { sms: { quiet_hours: { from: '10:00', to: '10:00' } } })).statusCode).toBe(422);
    expect((await s.admin('PUT', '/messaging/limits', { sms: { quiet_hours: { from: '25:00', to: '10:00' } } })).statusCode).toBe(422);
  });

  it('splits A/B, then sends the variant with more opens to the rest', async () => {
    const seg = await members.segment('AB');
    for (const n of [1, 2, 3, 4, 5]) await members.add(`ab${n}@example.org`, [seg]);
    const created = await expectOk(
      post({
        name: 'AB',
        segment_ids: [seg],
        email: { subject: 'AB base', html: '<p>x</p>' },
        ab: {
          test_share: 2,
          variants: [
            { share: 50, email: { subject: 'AB one' } },
            { share: 50, email: { subject: 'AB two' } },
          ],
          metric: 'opens',
          after_hours: 1,
        },
      }),
      201,
    );
    await s.runner.runDue();
    // Profile ids are random, so the members in the variants' slots are a random sample.
    expect(sentTo('AB one')).toHaveLength(1);
    expect(sentTo('AB two')).toHaveLength(1);
    expect(sentTo('AB base')).toEqual([]);
    expect(await read(created.id)).toMatchObject({ status: 'sending', held: 3, sent: 2, winner: null });
    const [two] = await s.t.db.db
      .selectFrom('bulk_recipients')
      .select('code')
      .where('shop_id', '=', s.shopId)
      .where('mailing_id', '=', created.id)
      .where('variant', '=', 'b')
      .execute();
    await s.t.db.db
      .updateTable('messaging_deliveries')
      .set({ opened_at: s.t.clock.now() })
      .where('shop_id', '=', s.shopId)
      .where('code', '=', two!.code!)
      .execute();
    s.t.clock.advance(3_600_000);
    await s.runner.runDue();
    expect(sentTo('AB one')).toHaveLength(1);
    expect([...sentTo('AB one'), ...sentTo('AB two')].sort()).toEqual([
      'ab1@example.org',
      'ab2@example.org',
      'ab3@example.org',
      'ab4@example.org',
      'ab5@example.org',
    ]);
    expect(await read(created.id)).toMatchObject({ status: 'done', recipients: 5, sent: 5, held: 0, winner: 'b' });
  });
});
