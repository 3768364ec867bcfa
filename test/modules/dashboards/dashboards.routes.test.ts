import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBackfill } from '../../../src/modules/dashboards/backfill.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';
import { fromAnswer, truthOf, type Truth, type TruthDay } from './dashboard-truth.js';

/**
 * The dashboards (docs/dashboards.md) against the truth computed from raw rows: a mixed
 * workload drawn by fast-check (events, repeated orders, loyalty, emails opened and
 * clicked, purchases attributed to them) over several Moscow days, read through the
 * admin API; then the same history counted again by the backfill, in batches of 3.
 */

const ZONE = 'Europe/Moscow';
const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 1, 6, 0, 0);

type Action =
  | { kind: 'event'; device: number; event: 'view' | 'cart' | 'purchase'; order: number; price: number; priced: boolean }
  | { kind: 'custom'; device: number }
  | { kind: 'join'; member: number }
  | { kind: 'credit'; member: number; amount: number }
  | { kind: 'debit'; member: number; amount: number }
  | { kind: 'mail'; to: number; open: boolean; click: boolean; buy: boolean; price: number }
  | { kind: 'wait'; hours: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('event' as const),
    device: fc.nat(4),
    event: fc.constantFrom('view' as const, 'cart' as const, 'purchase' as const),
    order: fc.nat(5),
    price: fc.integer({ min: 1, max: 50_000 }),
    priced: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('custom' as const), device: fc.nat(4) }),
  fc.record({ kind: fc.constant('join' as const), member: fc.nat(3) }),
  fc.record({ kind: fc.constant('credit' as const), member: fc.nat(3), amount: fc.integer({ min: 1, max: 10_000 }) }),
  fc.record({ kind: fc.constant('debit' as const), member: fc.nat(3), amount: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({
    kind: fc.constant('mail' as const),
    to: fc.nat(3),
    open: fc.boolean(),
    click: fc.boolean(),
    buy: fc.boolean(),
    price: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 14 }) }),
);

describe.each(TEST_DIALECTS)('dashboards on %s', (dialect) => {
  let s: MessagingStack;
  let other: { shopId: string; secret: string };
  const devices: string[] = [];
  let mailingId: number;

  const dashboard = (shopId: string, query: string, suffix = '') =>
    s.t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/dashboard${suffix}?${query}`, headers: s.t.adminHeaders });

  /** A /push event through the tracking service (the route's own path after its parsing). */
  async function push(
    shopId: string,
    did: string,
    event: 'view' | 'cart' | 'purchase',
    items: Array<{ id: string; amount: number; price?: number }>,
    extra: { orderId?: string; orderPrice?: number; recommendedCode?: string } = {},
  ): Promise<void> {
    await s.t.app.services.tracking.recordPush({
      shopId,
      did,
      event,
      items,
      attribution: extra.recommendedCode === undefined ? {} : { recommendedCode: extra.recommendedCode },
      ...(event === 'purchase' && {
        purchase: {
          ...(extra.orderId && { orderId: extra.orderId }),
          ...(extra.orderPrice !== undefined && { orderPrice: extra.orderPrice }),
        },
      }),
    });
  }

  async function run(a: Action, step: number): Promise<void> {
    const services = s.t.app.services;
    const phone = (n: number) => `7900000000${n}`;
    switch (a.kind) {
      case 'event': {
        const items = [{ id: `P-${a.order}`, amount: 1, price: a.price / 100 }];
        return push(s.shopId, devices[a.device] as string, a.event, items, {
          orderId: `O-${a.order}`,
          ...(a.priced && { orderPrice: a.price / 50 }),
        });
      }
      case 'custom':
        await services.tracking.recordCustom({
          shopId: s.shopId,
          did: devices[a.device],
          identifiers: {},
          code: 'signup',
          variables: {},
        });
        return;
      case 'join':
        await services.loyalty.joinMember(s.shopId, { phone: phone(a.member) });
        return;
      case 'credit':
      case 'debit': {
        const member = await services.loyalty.findMember(s.shopId, phone(a.member)).catch(() => undefined);
        if (!member) return;
        if (a.kind === 'credit') await services.loyalty.creditManual(s.shopId, phone(a.member), { amount: a.amount });
        else await services.loyalty.debitManual(s.shopId, phone(a.member), { amount: a.amount, reason: 'test' }).catch(() => undefined);
        return;
      }
      case 'mail': {
        const { payload } = await expectOk(s.transact({ code: 'welcome', email: `c${a.to}@example.org` }));
        const code = payload.code as string;
        await s.runner.runDue();
        const links = await services.messageOutcomes.emailLinks(s.shopId, code);
        const path = (link: string) => {
          const u = new URL(link);
          return `${u.pathname}${u.search}`;
        };
        if (a.open) await s.t.app.inject({ method: 'GET', url: path(links.open) });
        if (a.click) await s.t.app.inject({ method: 'GET', url: path(links.click('https://shop.example/x')) });
        if (a.open) await s.t.app.inject({ method: 'GET', url: path(links.open) });
        if (a.buy) {
          const items = [{ id: 'M-1', amount: 2, price: a.price / 100 }];
          await push(s.shopId, devices[a.to] as string, 'purchase', items, { orderId: `MAIL-${step}`, recommendedCode: code });
          await s.runner.runDue();
        }
        return;
      }
      case 'wait':
        s.t.clock.advance(a.hours * HOUR);
        return;
    }
  }

  async function answerByDay(shopId: string, from: string, to: string): Promise<Map<string, TruthDay>> {
    const body = await expectOk(dashboard(shopId, `from=${from}&to=${to}`));
    return new Map((body.days as Array<Parameters<typeof fromAnswer>[0] & { date: string }>).map((d) => [d.date, fromAnswer(d)]));
  }

  function expectSame(answer: Map<string, TruthDay>, truth: Truth, options: { revenueOfMessages: boolean }): void {
    const empty = (): TruthDay => ({
      events: {},
      active: 0,
      orders: 0,
      revenue: 0,
      members: 0,
      issued: 0,
      spent: 0,
      messages: {},
      attributedPurchases: 0,
      attributedRevenue: 0,
    });
    for (const day of truth.keys()) expect(answer.has(day), `day ${day} in the period`).toBe(true);
    for (const [day, got] of answer) {
      const want = truth.get(day) ?? empty();
      const expected = options.revenueOfMessages ? want : { ...want, attributedRevenue: 0 };
      expect(got, day).toEqual(expected);
    }
  }

  beforeAll(async () => {
    s = await messagingStack(dialect);
    s.t.clock.set(START);
    // The shop's zone is set when it is created (Moscow by default).
    expect((await s.t.app.services.shops.requireShop(s.shopId)).timezone).toBe(ZONE);
    await s.t.app.services.shops.createCustomEvent(s.shopId, { code: 'signup' });
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'shop@example.org' }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/welcome', {
        email: { subject: 'Hi', html: '<p><a href="https://shop.example/x">x</a></p>' },
      }),
    );
    for (let i = 0; i < 5; i++) devices.push((await s.t.app.services.identity.createDevice(s.shopId)).did);
    other = await createShopFixture(s.t.app.services, { timezone: ZONE });
    const row = await s.t.db.db
      .selectFrom('messaging_mailings')
      .select('id')
      .where('shop_id', '=', s.shopId)
      .where('code', '=', 'welcome')
      .executeTakeFirstOrThrow();
    mailingId = Number(row.id);

    const workload = fc.sample(fc.array(action, { minLength: 60, maxLength: 60 }), { seed: 36, numRuns: 1 })[0] as Action[];
    for (const [step, a] of workload.entries()) await run(a, step);
    // One of each, whatever the draw: the series are never all zeros.
    await run({ kind: 'join', member: 0 }, 1000);
    await run({ kind: 'credit', member: 0, amount: 500 }, 1001);
    await run({ kind: 'debit', member: 0, amount: 200 }, 1002);
    await run({ kind: 'mail', to: 1, open: true, click: true, buy: true, price: 1234 }, 1003);
    await run({ kind: 'event', device: 2, event: 'purchase', order: 9, price: 777, priced: false }, 1004);
    // The other shop's activity, on the same days.
    const did = (await s.t.app.services.identity.createDevice(other.shopId)).did;
    await push(other.shopId, did, 'view', [{ id: 'X', amount: 1 }]);
  }, 120_000);

  afterAll(async () => {
    await s.t.close();
  });

  it('says per Moscow day what the raw rows say, after a mixed workload', async () => {
    const truth = await truthOf(s.t.db.db, s.shopId, ZONE);
    expect(truth.size).toBeGreaterThan(1);
    const answer = await answerByDay(s.shopId, '2026-02-25', '2026-04-10');
    expect(answer.size).toBe(45);
    expectSame(answer, truth, { revenueOfMessages: true });
    const totals = [...truth.values()];
    expect(totals.reduce((sum, d) => sum + d.attributedPurchases, 0)).toBeGreaterThan(0);
    expect(totals.reduce((sum, d) => sum + d.spent, 0)).toBeGreaterThan(0);
  });

  it('answers totals that are the sums of the days, and open and click rates', async () => {
    const body = await expectOk(dashboard(s.shopId, 'from=2026-02-25&to=2026-04-10'));
    const days = body.days as Array<{ events_total: number; orders: number; messages: Record<string, { sent: number; opened: number }> }>;
    expect(body.totals.events_total).toBe(days.reduce((sum, d) => sum + d.events_total, 0));
    expect(body.totals.orders).toBe(days.reduce((sum, d) => sum + d.orders, 0));
    const email = body.totals.messages.email as { sent: number; opened: number; open_rate: number };
    expect(email.sent).toBeGreaterThan(0);
    expect(email.open_rate).toBeCloseTo(email.opened / email.sent, 4);
    expect(body.timezone).toBe(ZONE);
  });

  it("counts the mailing's funnel from its counters", async () => {
    const funnel = await expectOk(
      s.t.app.inject({
        method: 'GET',
        url: `/admin/v1/shops/${s.shopId}/dashboard/funnels/transactional/${mailingId}`,
        headers: s.t.adminHeaders,
      }),
    );
    const rows = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .selectAll()
      .where('shop_id', '=', s.shopId)
      .where('status', '=', 'sent')
      .execute();
    const truth = await truthOf(s.t.db.db, s.shopId, ZONE);
    const revenue = [...truth.values()].reduce((sum, d) => sum + d.attributedRevenue, 0);
    expect(funnel).toMatchObject({
      type: 'transactional',
      id: mailingId,
      sent: rows.length,
      delivered: rows.filter((r) => r.hard_bounced_at === null).length,
      opened: rows.filter((r) => r.opened_at !== null).length,
      clicked: rows.filter((r) => r.clicked_at !== null).length,
      purchased: new Set(rows.filter((r) => r.purchased_at !== null).map((r) => r.code)).size,
    });
    expect(Math.round(funnel.revenue * 100)).toBe(revenue);
    const none = await expectOk(
      s.t.app.inject({ method: 'GET', url: `/admin/v1/shops/${s.shopId}/dashboard/funnels/bulk/${mailingId}`, headers: s.t.adminHeaders }),
    );
    expect(none).toMatchObject({ sent: 0, opened: 0, purchased: 0, channels: [] });
  });

  it('counts an event at 23:30 in Moscow on that Moscow day, and one at 00:30 on the next', async () => {
    const did = (await s.t.app.services.identity.createDevice(other.shopId)).did;
    s.t.clock.set(Date.UTC(2026, 4, 10, 20, 30));
    await push(other.shopId, did, 'cart', [{ id: 'Z', amount: 1 }]);
    s.t.clock.set(Date.UTC(2026, 4, 10, 21, 30));
    await push(other.shopId, did, 'cart', [{ id: 'Z', amount: 1 }]);
    const answer = await answerByDay(other.shopId, '2026-05-10', '2026-05-11');
    expect(answer.get('2026-05-10')?.events).toEqual({ cart: 1 });
    expect(answer.get('2026-05-11')?.events).toEqual({ cart: 1 });
    expect(answer.get('2026-05-10')?.active).toBe(1);
  });

  it("keeps each shop's numbers to itself", async () => {
    const body = await expectOk(dashboard(other.shopId, 'from=2026-02-25&to=2026-04-10'));
    expect(body.totals.events_total).toBe(1);
    expect(body.totals.messages).toEqual({});
    const unknown = await dashboard('f'.repeat(30), 'from=2026-03-01&to=2026-03-02');
    expect(unknown.statusCode).toBe(404);
  });

  it.each([
    ['from=2026-13-01&to=2026-12-31', 'from'],
    ['from=2026-02-30&to=2026-03-01', 'from'],
    ['from=2026-03-01&to=tomorrow', 'to'],
    ['from=2026-03-02&to=2026-03-01', 'to'],
    ['from=1926-01-01&to=2026-01-01', 'to'],
    ['from=2026-01-01&to=2027-01-02', 'to'],
  ])('refuses the period %s with 422 naming `%s`', async (query, field) => {
    const response = await dashboard(s.shopId, query);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json<{ error: { message: string } }>().error.message).toContain(`\`${field}\``);
    const csv = await dashboard(s.shopId, query, '.csv');
    expect(csv.statusCode).toBe(422);
  });

  it('accepts a period of 366 days and refuses a missing `to`', async () => {
    const body = await expectOk(dashboard(s.shopId, 'from=2026-01-01&to=2027-01-01'));
    expect(body.days).toHaveLength(366);
    const missing = await dashboard(s.shopId, 'from=2026-01-01');
    expect([400, 422]).toContain(missing.statusCode);
  });

  it('downloads the same numbers as CSV under a file name', async () => {
    const json = await expectOk(dashboard(s.shopId, 'from=2026-03-01&to=2026-03-05'));
    const csv = await dashboard(s.shopId, 'from=2026-03-01&to=2026-03-05', '.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="dashboard-2026-03-01-2026-03-05.csv"');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 5 + 1);
    const header = (lines[0] as string).split(',');
    const total = (lines.at(-1) as string).split(',');
    expect(total[0]).toBe('total');
    expect(Number(total[header.indexOf('events_total')])).toBe(json.totals.events_total);
    expect(Number(total[header.indexOf('revenue')])).toBe(json.totals.revenue);
    expect(Number((lines[1] as string).split(',')[header.indexOf('events_total')])).toBe(json.days[0].events_total);

    const funnel = await s.t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${s.shopId}/dashboard/funnels/transactional/${mailingId}.csv`,
      headers: s.t.adminHeaders,
    });
    expect(funnel.statusCode, funnel.body).toBe(200);
    expect(funnel.headers['content-disposition']).toBe(`attachment; filename="funnel-transactional-${mailingId}.csv"`);
    expect(funnel.body.split('\r\n')[0]).toBe('channel,sent,delivered,opened,clicked,purchased,revenue');
  });

  it('counts the same history again from the raw rows with the backfill, a batch at a time and resumably', async () => {
    const db = s.t.db.db;
    for (const table of ['dashboard_days', 'dashboard_active', 'dashboard_funnels'] as const) {
      await db.deleteFrom(table).where('shop_id', '=', s.shopId).execute();
    }
    const events = await db
      .selectFrom('tracking_sequences')
      .select('last_id')
      .where('shop_id', '=', s.shopId)
      .where('name', '=', 'events')
      .executeTakeFirstOrThrow();
    const ledger = await db.selectFrom('loyalty_sequences').select('last_id').where('shop_id', '=', s.shopId).executeTakeFirstOrThrow();
    await db
      .insertInto('dashboard_backfill')
      .values({
        shop_id: s.shopId,
        cutoff: s.t.clock.now() + 1,
        events_until: Number(events.last_id),
        ledger_until: Number(ledger.last_id),
        phase: 'events',
        cursor: '0',
        updated_at: 0,
      })
      .execute();
    const backfill = new DashboardBackfill({ db: s.t.db, clock: s.t.clock, rollups: s.t.app.services.dashboardRollups, batch: 3 });
    // Stopped after a few batches, then run again: it resumes from the saved cursor.
    for (let i = 0; i < 4; i++) expect(await backfill.step(s.shopId)).toBe(true);
    await backfill.run(s.shopId);
    expect(await backfill.step(s.shopId)).toBe(false);
    const answer = await answerByDay(s.shopId, '2026-02-25', '2026-04-10');
    expectSame(answer, await truthOf(db, s.shopId, ZONE), { revenueOfMessages: false });
  });
});
