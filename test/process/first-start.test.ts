import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { InstallationService } from '../../src/modules/system/installation.service.js';
import { DEMO_SHOP_NAME, DEMO_STEPS, seedDemo } from '../../src/process/demo.js';
import { formatWelcome, localBaseUrl, prepareStartup, type StartupFacts } from '../../src/process/first-start.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('first start on %s', (dialect) => {
  let db: TestDb;
  afterEach(async () => {
    await db.cleanup();
  });

  async function start(env: Record<string, string> = {}): Promise<{ services: Services; facts: StartupFacts }> {
    const clock = new ManualClock();
    const services = createServices({ config: loadConfig(env), db, clock });
    const facts = await prepareStartup(services, new InstallationService({ db, clock }));
    return { services, facts };
  }

  it('generates the admin token and creates the demo shop with its sample data once', async () => {
    db = await createTestDb(dialect);
    const first = await start();
    expect(first.facts.adminToken.kind).toBe('generated');
    expect(first.facts.firstStart).toBe(true);
    const demo = first.facts.demo!;
    expect(demo.shop.name).toBe(DEMO_SHOP_NAME);
    expect(demo.steps).toEqual(DEMO_STEPS.map((s) => s.name));
    expect((await first.services.shops.listCustomEvents(demo.shop.shopId)).map((e) => e.code)).toEqual([
      'newsletter_signup',
      'review_left',
    ]);
    // The loyalty programme: two levels, a rewarded event and a member with 500.00 bonuses.
    const ladder = await first.services.loyaltyLevels.getLadder(demo.shop.shopId);
    expect(ladder.levels.map((l) => l.code)).toEqual(['silver', 'gold']);
    expect(await first.services.loyaltyRewards.getRule(demo.shop.shopId, 'review_left')).toMatchObject({ amount: 10_000 });
    const member = await first.services.loyaltyLevels.viewMember(demo.shop.shopId, '79001234567');
    // 500.00 welcome bonuses, and 5% of the 1,341.00 the subscription order paid.
    expect([member.balance, member.level?.code]).toEqual([56_705, 'silver']);
    // The paid subscription: the member is in it for a year, and its order took one use of the promos benefit.
    const shop = { shopId: demo.shop.shopId, timezone: demo.shop.timezone };
    const status = await first.services.subscriptionMembers.status(shop, 'plus', '79001234567');
    expect(status.member).toMatchObject({ plan: 'monthly', active: true, startedOn: '2026-01-15', paidTill: '2027-01-15' });
    expect(status.benefits.map((b) => [b.code, b.dataType])).toEqual([
      ['free_delivery', 'boolean'],
      ['bonus_multiplier', 'integer'],
      ['members_sale', 'promos'],
    ]);
    expect(status.benefits[2]).toMatchObject({ allowance: { savingsUsed: 149_00, usageUsed: 1, usageLeft: 2 } });
    const orders = await first.services.subscriptionMembers.orders(shop, 'plus', '79001234567', {});
    expect(orders.map((o) => [o.orderId, o.status])).toEqual([['demo-plus-1', 'completed']]);

    // The product page's block answers before any event: similar from the catalog, then popular in the feed's order.
    const block = await first.services.recommend.recommend(demo.shop, { code: 'product_page', item: '1003', page: 1, discount: false });
    expect(block.ids).toHaveLength(6);
    expect(block.ids).not.toContain('1003');
    expect(block.sources.get(block.ids[0]!)).toBe('similar');

    const second = await start();
    expect(second.facts).toEqual({ adminToken: { kind: 'stored' }, firstStart: false, demo: undefined });
    expect((await second.services.shops.listShops()).map((s) => s.name)).toEqual([DEMO_SHOP_NAME]);
    const token = first.facts.adminToken.kind === 'generated' ? first.facts.adminToken.token : '';
    expect(await second.services.adminToken.verify(token)).toBe(true);
  });

  it("makes the first owner's invitation link while no admin user exists, once", async () => {
    db = await createTestDb(dialect);
    const first = await start();
    expect(first.facts.ownerInvitation).toMatch(/^[\w-]{43}$/);
    expect(await first.services.adminSessions.readInvitation(first.facts.ownerInvitation!)).toEqual({ email: null, role: 'owner' });
    const text = formatWelcome(first.facts, 'http://127.0.0.1:8080')!;
    expect(text).toContain(
      `Admin UI: open this link to create the first owner (shown only this once, valid 7 days):\n  http://127.0.0.1:8080/admin/invite/${first.facts.ownerInvitation}\n`,
    );
    const second = await start();
    expect(second.facts.ownerInvitation).toBeUndefined();
    expect(formatWelcome(second.facts, 'http://127.0.0.1:8080')).toBeUndefined();
  });

  it('creates the demo shop but no token when PATRON_ADMIN_TOKEN is set', async () => {
    db = await createTestDb(dialect);
    const { facts } = await start({ PATRON_ADMIN_TOKEN: 'operator-chosen-token-123' });
    expect(facts.adminToken).toEqual({ kind: 'environment' });
    expect(facts.demo?.shop.name).toBe(DEMO_SHOP_NAME);
  });

  it('is not a first start when shops were created before the server first ran', async () => {
    db = await createTestDb(dialect);
    const services = createServices({ config: loadConfig({}), db, clock: new ManualClock() });
    await services.shops.createShop({ name: 'Made with patron shop create' });
    const { facts } = await start();
    expect(facts.firstStart).toBe(false);
    expect(facts.demo).toBeUndefined();
    expect(facts.adminToken.kind).toBe('generated');
  });

  it('lets only one of two processes starting together create the demo shop', async () => {
    db = await createTestDb(dialect);
    const [a, b] = await Promise.all([start(), start()]);
    expect([a.facts.firstStart, b.facts.firstStart].sort()).toEqual([false, true]);
    expect((await a.services.shops.listShops()).filter((s) => s.name === DEMO_SHOP_NAME)).toHaveLength(1);
  });

  it('leaves an existing demo shop alone when `patron demo` runs again', async () => {
    db = await createTestDb(dialect);
    const services = createServices({ config: loadConfig({}), db, clock: new ManualClock() });
    const created = await seedDemo(services);
    const again = await seedDemo(services);
    expect(created.kind).toBe('created');
    expect(again).toEqual({ kind: 'exists', shop: created.shop });
    expect(await services.shops.listShops()).toHaveLength(1);
  });
});

describe('welcome block', () => {
  const shop = {
    shopId: 'a'.repeat(30),
    name: DEMO_SHOP_NAME,
    currency: 'RUB',
    timezone: 'Europe/Moscow',
    active: true,
    restricted: false,
    paidTill: null,
    createdAt: 0,
  };

  it('shows the generated token, the demo credentials and curl lines that use the token', () => {
    const text = formatWelcome(
      {
        adminToken: { kind: 'generated', token: 'tok_123' },
        firstStart: true,
        demo: { kind: 'created', shop, secret: 'sec_456', steps: [] },
      },
      'http://127.0.0.1:8080',
    )!;
    expect(text).toContain('\n  tok_123\n');
    expect(text).toContain(`shop_id      ${shop.shopId}`);
    expect(text).toContain('shop_secret  sec_456');
    expect(text).toContain('  curl http://127.0.0.1:8080/health\n');
    expect(text).toContain('  curl -H "Authorization: Bearer tok_123" http://127.0.0.1:8080/admin/v1/shops\n');
    expect(text).toContain(
      `  curl -H "Authorization: Bearer tok_123" -H "Content-Type: application/json" -d '{"name":"My shop"}' http://127.0.0.1:8080/admin/v1/shops\n`,
    );
    const subscriber = `shop_id=${shop.shopId}&shop_secret=sec_456&identifier=79001234567&subscription=plus`;
    expect(text).toContain(`  curl "http://127.0.0.1:8080/loyalty/subscriptions/members/status?${subscriber}"\n`);
    expect(text).toContain(`  curl "http://127.0.0.1:8080/loyalty/subscriptions/orders?${subscriber}"\n`);
    expect(text).toContain('http://127.0.0.1:8080/docs');
  });

  it('points the curl lines at the environment variable when the token comes from there', () => {
    const text = formatWelcome({ adminToken: { kind: 'environment' }, firstStart: true, demo: undefined }, 'http://h:1')!;
    expect(text).toContain('-H "Authorization: Bearer $PATRON_ADMIN_TOKEN"');
    expect(text).not.toContain('Admin token (shown');
  });

  it('prints nothing on a later start', () => {
    expect(formatWelcome({ adminToken: { kind: 'stored' }, firstStart: false, demo: undefined }, 'http://h:1')).toBeUndefined();
    expect(formatWelcome({ adminToken: { kind: 'environment' }, firstStart: false, demo: undefined }, 'http://h:1')).toBeUndefined();
  });

  it('turns a wildcard listen address into one a browser can dial', () => {
    expect(localBaseUrl({ address: '0.0.0.0', family: 'IPv4', port: 8080 }, '0.0.0.0')).toBe('http://127.0.0.1:8080');
    expect(localBaseUrl({ address: '::', family: 'IPv6', port: 8080 }, '::')).toBe('http://[::1]:8080');
    expect(localBaseUrl({ address: '10.1.2.3', family: 'IPv4', port: 81 }, '10.1.2.3')).toBe('http://10.1.2.3:81');
  });
});
