import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

interface RecentEvent {
  id: number;
  event: string;
  did: string | null;
  custom: boolean;
}

describe.each(TEST_DIALECTS)("a shop's newest events (the integration page's live feed) on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const recent = async (shopId: string, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/events/recent${query}`, headers: t.adminHeaders });
    return res;
  };

  async function shopWithEvents(count: number): Promise<{ shopId: string; did: string }> {
    const { shopId } = await createShopFixture(t.app.services);
    const { did } = await t.app.services.identity.createDevice(shopId);
    for (let i = 0; i < count; i++) {
      t.clock.advance(1000);
      await t.app.services.tracking.recordPush({ shopId, did, event: 'view', items: [{ id: `P-${i}`, amount: 1 }], attribution: {} });
    }
    return { shopId, did };
  }

  it('answers the newest events first with their ids, and only newer ones after a given id', async () => {
    const { shopId, did } = await shopWithEvents(3);
    const first = await recent(shopId);
    expect(first.statusCode).toBe(200);
    const events = first.json<{ events: RecentEvent[] }>().events;
    expect(events).toHaveLength(3);
    expect(events.map((e) => e.event)).toEqual(['view', 'view', 'view']);
    expect(events[0]).toMatchObject({ did, custom: false, items: [{ id: 'P-2', amount: 1 }] });
    const ids = events.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    t.clock.advance(1000);
    await t.app.services.shops.createCustomEvent(shopId, { code: 'demo_signup' });
    const custom = await t.app.services.tracking.recordCustom({ shopId, did, code: 'demo_signup', identifiers: {}, variables: {} });
    expect(custom.ok).toBe(true);
    const newer = await recent(shopId, `?after=${ids[0]}`);
    expect(newer.statusCode).toBe(200);
    const fresh = newer.json<{ events: RecentEvent[] }>().events;
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ event: 'demo_signup', custom: true });
    expect(fresh[0]!.id).toBeGreaterThan(ids[0]!);

    const none = await recent(shopId, `?after=${fresh[0]!.id}`);
    expect(none.json<{ events: RecentEvent[] }>().events).toEqual([]);
  });

  it('holds an answer to its limit, and never shows another shop’s events', async () => {
    const { shopId } = await shopWithEvents(5);
    const other = await shopWithEvents(0);
    const limited = await recent(shopId, '?limit=2');
    expect(limited.json<{ events: RecentEvent[] }>().events).toHaveLength(2);
    const empty = await recent(other.shopId);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ events: [] });
  });

  it('refuses a limit past its bound and a negative after with 422 naming the parameter; an unknown shop is 404', async () => {
    const { shopId } = await shopWithEvents(0);
    const tooMany = await recent(shopId, '?limit=101');
    expectAdminError(tooMany, 422, 'VALIDATION_FAILED');
    expect(tooMany.json().error.message).toContain('limit');
    const negative = await recent(shopId, '?after=-1');
    expectAdminError(negative, 422, 'VALIDATION_FAILED');
    expect(negative.json().error.message).toContain('after');
    expectAdminError(await recent(UNKNOWN_SHOP), 404, 'NOT_FOUND');
  });
});
