import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
interface Summary {
  id: number;
  email: string | null;
  phone: string | null;
  created_at: string;
}

describe.each(TEST_DIALECTS)('admin customers on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let otherShopId: string;
  /** Profile ids of the shop, newest first as the list must answer them. */
  let newestFirst: number[];
  let ann: { did: string; profileId: number };

  const get = (url: string) => t.app.inject({ method: 'GET', url: `/admin/v1/shops/${url}`, headers: t.adminHeaders });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shopId = (await createShopFixture(t.app.services)).shopId;
    otherShopId = (await createShopFixture(t.app.services)).shopId;
    const { identity } = t.app.services;
    // 23 profiles, in pairs created in the same millisecond: the id breaks the tie.
    const made: Array<{ id: number; at: number }> = [];
    for (let i = 0; i < 23; i++) {
      if (i % 2 === 0) t.clock.advance(1000);
      const device = await identity.createDevice(shopId);
      await identity.resolveProfile(shopId, { did: device.did, email: `person${i}@example.com` });
      made.push({ id: device.profileId, at: t.clock.now() });
    }
    newestFirst = made.sort((a, b) => b.at - a.at || b.id - a.id).map((p) => p.id);
    for (let i = 0; i < 5; i++) await identity.createDevice(otherShopId);

    t.clock.advance(1000);
    ann = await identity.createDevice(shopId);
    await identity.resolveProfile(shopId, {
      did: ann.did,
      email: 'ann@example.com',
      phone: '+7 912 345-67-89',
      externalId: 'crm-17',
      loyaltyId: 'card-42',
    });
    // A second device of Ann's, anonymous first, then merged with her profile by her email;
    // whichever profile survives holds both devices and every identifier.
    const second = await identity.createDevice(shopId);
    await identity.resolveProfile(shopId, { did: second.did, email: 'ann@example.com' });
    const survivor = await identity.currentProfileId(shopId, ann.profileId);
    ann = { did: ann.did, profileId: survivor! };
    newestFirst.unshift(ann.profileId);
    // 13 events, several in one millisecond, and two purchases.
    for (let i = 0; i < 11; i++) {
      if (i % 3 === 0) t.clock.advance(1000);
      await t.app.services.tracking.recordPush({
        shopId,
        did: ann.did,
        event: 'view',
        items: [{ id: `P-${i}`, amount: 1 }],
        attribution: {},
      });
    }
    for (const orderId of ['o-1', 'o-2']) {
      t.clock.advance(1000);
      await t.app.services.tracking.recordPush({
        shopId,
        did: ann.did,
        event: 'purchase',
        items: [{ id: 'P-1', amount: 2, price: 10.5 }],
        attribution: {},
        purchase: { orderId },
      });
    }
    const join = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopId}/loyalty/members`,
      headers: t.adminHeaders,
      payload: { phone: '79123456789' },
    });
    expect(join.statusCode, join.body).toBeLessThan(300);
  });
  afterAll(async () => {
    await t.close();
  });

  async function walk<T>(path: string, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const response = await get(`${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<Page<T>>();
      items.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { items, pages };
  }

  it('lists every live customer newest first, each exactly once across pages, none of another shop', async () => {
    const { items, pages } = await walk<Summary>(`${shopId}/customers`, 5);
    expect(pages).toBe(5);
    expect(items.map((p) => p.id)).toEqual(newestFirst);
  });

  it('finds a customer by any identifier, exactly', async () => {
    for (const identifier of ['ann@example.com', ' ANN@example.com', '8 (912) 345-67-89', 'crm-17', 'card-42', ann.did]) {
      const response = await get(`${shopId}/customers?identifier=${encodeURIComponent(identifier)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Page<Summary>>()).toEqual({
        items: [expect.objectContaining({ id: ann.profileId, email: 'ann@example.com', phone: '79123456789' })],
        next_cursor: null,
      });
    }
    for (const identifier of ['ann@example', 'crm-1', 'nobody']) {
      expect((await get(`${shopId}/customers?identifier=${identifier}`)).json()).toEqual({ items: [], next_cursor: null });
    }
    expect((await get(`${otherShopId}/customers?identifier=crm-17`)).json()).toEqual({ items: [], next_cursor: null });
  });

  it("answers a customer's page in one call: identifiers, devices, merges, loyalty", async () => {
    const response = await get(`${shopId}/customers/${ann.profileId}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      id: ann.profileId,
      email: 'ann@example.com',
      external_id: 'crm-17',
      loyalty: { identifier: '79123456789', balance: 0, pending: 0 },
      segments: [],
      subscriptions: {},
      push_tokens: [],
    });
    expect(body.devices).toHaveLength(2);
    expect(body.merges).toEqual([expect.objectContaining({ into_profile_id: ann.profileId })]);
    const merged = (body.merges as Array<{ from_profile_id: number }>)[0]!.from_profile_id;
    expect(merged).not.toBe(ann.profileId);
    // The merged id leads to the survivor; the other shop does not know the profile.
    expect((await get(`${shopId}/customers/${merged}`)).json()).toMatchObject({ id: ann.profileId });
    expectAdminError(await get(`${otherShopId}/customers/${ann.profileId}`), 404, 'NOT_FOUND');
    const plain = (await get(`${shopId}/customers/${newestFirst[1]}`)).json<Record<string, unknown>>();
    expect(plain).toMatchObject({ loyalty: null, merges: [] });
  });

  it("pages a customer's events and orders newest first, each exactly once", async () => {
    const events = await walk<{ id: number; event: string; time: string }>(`${shopId}/customers/${ann.profileId}/events`, 4);
    expect(events.items).toHaveLength(13);
    expect(new Set(events.items.map((e) => e.id)).size).toBe(13);
    const keys = events.items.map((e) => [Date.parse(e.time), e.id] as const);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(keys).toEqual(sorted);
    expect(events.items.slice(0, 2).map((e) => e.event)).toEqual(['purchase', 'purchase']);
    const orders = await walk<{ order_id: string; items_total: number }>(`${shopId}/customers/${ann.profileId}/orders`, 1);
    expect(orders.items.map((o) => o.order_id)).toEqual(['o-2', 'o-1']);
    expect(orders.items[0]).toMatchObject({ items_total: 21 });
    expect((await get(`${otherShopId}/customers/${ann.profileId}/events`)).statusCode).toBe(404);
  });

  it('refuses bounds and foreign cursors with 422, an unknown shop or customer with 404', async () => {
    for (const query of [
      'limit=0',
      'limit=201',
      'cursor=abc',
      `cursor=${Buffer.from('["x",1]').toString('base64url')}`,
      'identifier=',
      'bogus=1',
    ]) {
      expectAdminError(await get(`${shopId}/customers?${query}`), 422, 'VALIDATION_FAILED');
    }
    const first = (await get(`${shopId}/customers?limit=1`)).json<Page<Summary>>();
    expectAdminError(await get(`${shopId}/customers?identifier=crm-17&cursor=${first.next_cursor}`), 422, 'VALIDATION_FAILED');
    expectAdminError(await get(`${shopId}/customers/${ann.profileId}/events?limit=500`), 422, 'VALIDATION_FAILED');
    expectAdminError(await get(`${shopId}/customers/not-a-number`), 422, 'VALIDATION_FAILED');
    expectAdminError(await get(`${shopId}/customers/123`), 404, 'NOT_FOUND');
    expectAdminError(await get(`${UNKNOWN_SHOP}/customers`), 404, 'NOT_FOUND');
  });
});
