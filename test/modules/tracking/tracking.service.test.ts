import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { countRows, item, push, trackingStack, type TrackingStack } from './tracking-fixture.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe.each(TEST_DIALECTS)('tracking service on %s', (dialect) => {
  let db: TestDb;
  let t: TrackingStack;
  let shopId: string;
  let did: string;
  let profileId: number;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    t = trackingStack(db);
    shopId = (await createShopFixture(t)).shopId;
    ({ did, profileId } = await t.identity.createDevice(shopId));
  });

  describe('carts and wish lists', () => {
    it('adds to the cart, replaces it with full_cart and removes with remove_from_cart', async () => {
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a', 2), item('b')] }));
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a', 5, { price: 10 }), item('c')] }));
      expect((await t.tracking.getLists(shopId, profileId)).cart).toEqual([item('a', 5, { price: 10 }), item('b'), item('c')]);

      await t.tracking.recordPush(push(shopId, did, 'remove_from_cart', { items: [item('b'), item('zz')] }));
      expect((await t.tracking.getLists(shopId, profileId)).cart).toEqual([item('a', 5, { price: 10 }), item('c')]);

      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('d', 3)], fullCart: true }));
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [item('d', 3)], wish: [] });

      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [], fullCart: true }));
      expect((await t.tracking.getLists(shopId, profileId)).cart).toEqual([]);
    });

    it('adds to the wish list, replaces it with full_wish and removes with remove_wish', async () => {
      await t.tracking.recordPush(push(shopId, did, 'wish', { items: [item('a'), item('b')] }));
      await t.tracking.recordPush(push(shopId, did, 'remove_wish', { items: [item('a')] }));
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [], wish: [item('b')] });
      await t.tracking.recordPush(push(shopId, did, 'wish', { items: [item('x'), item('y')], fullWish: true }));
      expect((await t.tracking.getLists(shopId, profileId)).wish).toEqual([item('x'), item('y')]);
    });

    it('applies the list operations of one batch in the order they were submitted', async () => {
      await Promise.all([
        t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a'), item('b')] })),
        t.tracking.recordPush(push(shopId, did, 'remove_from_cart', { items: [item('a')] })),
        t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('c')] })),
        t.tracking.recordPush(push(shopId, did, 'wish', { items: [item('w')] })),
      ]);
      expect(t.tracking.commitStats().commits).toBe(1);
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [item('b'), item('c')], wish: [item('w')] });
    });
  });

  describe('purchases', () => {
    it('creates an order of the profile with exact totals in kopecks', async () => {
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a'), item('keep')] }));
      const event = await t.tracking.recordPush(
        push(shopId, did, 'purchase', {
          items: [item('a', 3, { price: 19.99 }), item('b', 1, { price: 1.005 }), item('c', 2)],
          purchase: { orderId: 'ORD-1', orderPrice: 60.98, deliveryType: 'courier', paymentType: 'card', promocode: 'P1' },
        }),
      );
      const orders = await t.tracking.listOrders(shopId, profileId);
      expect(orders).toEqual([
        {
          id: 1,
          orderId: 'ORD-1',
          eventId: event.id,
          profileId,
          did,
          items: [item('a', 3, { price: 19.99 }), item('b', 1, { price: 1.005 }), item('c', 2)],
          deliveryType: 'courier',
          paymentType: 'card',
          promocode: 'P1',
          itemsTotal: 5997 + 101,
          orderPrice: 6098,
          createdAt: t.clock.now(),
          orderCash: null,
          orderBonuses: null,
          orderDelivery: null,
          orderDiscount: null,
          channel: null,
          taxFree: null,
          giftPackage: null,
          deliveryAddress: null,
          custom: null,
          stream: null,
        },
      ]);
      // The bought item leaves the cart; the others stay.
      expect((await t.tracking.getLists(shopId, profileId)).cart).toEqual([item('keep')]);
    });

    it('records a repeated purchase with the same order_id as an event but not as a second order', async () => {
      const first = push(shopId, did, 'purchase', { items: [item('a', 1, { price: 5 })], purchase: { orderId: 'R-1' } });
      const again = push(shopId, did, 'purchase', { items: [item('b', 1, { price: 7 })], purchase: { orderId: 'R-1' } });
      await t.tracking.recordPush(first);
      await t.tracking.recordPush(again);
      // And twice more within one batch.
      await Promise.all([t.tracking.recordPush(again), t.tracking.recordPush(again)]);
      const orders = await t.tracking.listOrders(shopId, profileId);
      expect(orders.map((o) => [o.orderId, o.itemsTotal])).toEqual([['R-1', 500]]);
      expect(await countRows(db, 'events', shopId)).toBe(4);
    });

    it('creates an order per purchase without an order_id, an empty one counting as absent', async () => {
      await t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a', 1, { price: 1 })] }));
      await t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a', 1, { price: 1 })], purchase: { orderId: '' } }));
      await t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a', 1, { price: 1 })], purchase: { orderId: '' } }));
      const orders = await t.tracking.listOrders(shopId, profileId);
      expect(orders.map((o) => o.orderId)).toEqual([null, null, null]);
    });

    it('refuses a price too large to count, storing nothing', async () => {
      await expect(
        t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a', 1000, { price: 1e13 })] })),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'items' } });
      expect(await countRows(db, 'events', shopId)).toBe(0);
    });
  });

  describe('stored events', () => {
    it('stores every push event with its attribution, newest first per device', async () => {
      const view = await t.tracking.recordPush(
        push(shopId, did, 'view', {
          items: [item('a')],
          sid: 'SESSION001',
          attribution: { stream: 'web', segment: 'A', recommendedBy: 'dynamic', recommendedCode: 'r1', referer: 'https://x.test/' },
        }),
      );
      t.clock.advance(1000);
      const search = await t.tracking.recordPush(push(shopId, did, 'search', { searchQuery: 'shoes' }));
      const category = await t.tracking.recordPush(
        push(shopId, did, 'category', { categoryId: '12', attribution: { recommendedBy: null, recommendedCode: null } }),
      );
      expect(view).toEqual({
        id: 1,
        shopId,
        profileId,
        did,
        event: 'view',
        custom: false,
        time: t.clock.now() - 1000,
        items: [item('a')],
        params: { stream: 'web', segment: 'A', recommended_by: 'dynamic', recommended_code: 'r1', referer: 'https://x.test/' },
      });
      expect(await t.tracking.listEvents(shopId, did, 10)).toEqual([category, search, view]);
      expect(await t.tracking.listEvents(shopId, did, 2)).toEqual([category, search]);
      expect(category.params).toEqual({ category_id: '12', recommended_by: null, recommended_code: null });

      const row = await db.db.selectFrom('events').selectAll().where('shop_id', '=', shopId).where('id', '=', 1).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ sid: 'SESSION001', stream: 'web', segment: 'A', recommended_by: 'dynamic', recommended_code: 'r1' });
    });

    it('stores an event with 5,000 items, its counters split under both dialects’ parameter limits', async () => {
      // 5,000 items × 2 granularities × 7 columns = 70,000 values: more than one statement may bind.
      const items = Array.from({ length: 5000 }, (_, i) => item(`bulk-${i}`));
      const event = await t.tracking.recordPush(push(shopId, did, 'view', { items }));
      expect(event.items).toHaveLength(5000);
      expect(await countRows(db, 'product_counters', shopId)).toBe(10_000);
      expect((await t.tracking.productCounters(shopId, 'bulk-4999')).daily.view).toBe(1);
    });

    it('tells whether the shop has a device', async () => {
      expect(await t.tracking.deviceExists(shopId, did)).toBe(true);
      expect(await t.tracking.deviceExists(shopId, 'Unknown000')).toBe(false);
      expect(await t.tracking.deviceExists(shopId, 'bad id')).toBe(false);
    });

    it('rejects a malformed did', async () => {
      await expect(t.tracking.recordPush(push(shopId, 'short', 'view', { items: [item('a')] }))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'did' },
      });
    });
  });

  describe('product counters', () => {
    // The manual clock starts at 12:00:00.000 UTC: a bucket edge of both granularities.
    it('counts an event in `now` while its 5-minute bucket is among the last 6, exactly', async () => {
      const start = t.clock.now();
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('p')] }));
      t.clock.set(start + 4 * MIN + 59_999);
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('p'), item('p')] }));
      t.clock.set(start + 5 * MIN);
      await t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('p', 1, { price: 1 })] }));

      t.clock.set(start + 29 * MIN + 59_999);
      expect((await t.tracking.productCounters(shopId, 'p')).now).toEqual({ view: 1, cart: 1, purchase: 1 });
      t.clock.set(start + 30 * MIN);
      // The 12:00 bucket left the window: its view and its cart from 12:04:59.999 no longer count.
      expect((await t.tracking.productCounters(shopId, 'p')).now).toEqual({ view: 0, cart: 0, purchase: 1 });
      t.clock.set(start + 35 * MIN);
      expect((await t.tracking.productCounters(shopId, 'p')).now).toEqual({ view: 0, cart: 0, purchase: 0 });
      expect((await t.tracking.productCounters(shopId, 'p')).daily).toEqual({ view: 1, cart: 1, purchase: 1 });
    });

    it('reads the counters of many items together, each its own, zero for an item never seen', async () => {
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('m1'), item('m2')] }));
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('m2')] }));
      const other = (await createShopFixture(t)).shopId;
      await t.tracking.recordPush(push(other, (await t.identity.createDevice(other)).did, 'view', { items: [item('m3')] }));
      const counters = await t.tracking.productCountersOf(shopId, ['m2', 'm1', 'm3', 'm2']);
      expect([...counters.keys()].sort()).toEqual(['m1', 'm2', 'm3']);
      expect(counters.get('m1')?.now).toEqual({ view: 1, cart: 0, purchase: 0 });
      expect(counters.get('m2')?.now).toEqual({ view: 1, cart: 1, purchase: 0 });
      // m3 was seen in another shop only.
      expect(counters.get('m3')?.daily).toEqual({ view: 0, cart: 0, purchase: 0 });
      expect((await t.tracking.productCountersOf(shopId, [])).size).toBe(0);
    });

    it('counts an event in `daily` while its hour is among the last 24, exactly', async () => {
      const start = t.clock.now();
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('q')] }));
      t.clock.set(start + 59 * MIN);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('q')] }));
      t.clock.set(start + 24 * HOUR - 1);
      expect((await t.tracking.productCounters(shopId, 'q')).daily).toEqual({ view: 2, cart: 0, purchase: 0 });
      t.clock.set(start + 24 * HOUR);
      expect((await t.tracking.productCounters(shopId, 'q')).daily).toEqual({ view: 0, cart: 0, purchase: 0 });
    });

    it('reads the stored counters, not the event log, and sums one batch into them', async () => {
      await Promise.all(
        Array.from({ length: 20 }, () => t.tracking.recordPush(push(shopId, did, 'view', { items: [item('r'), item('s')] }))),
      );
      await t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('r')], fullCart: true }));
      await db.db.deleteFrom('events').where('shop_id', '=', shopId).execute();
      expect(await t.tracking.productCounters(shopId, 'r')).toEqual({
        now: { view: 20, cart: 0, purchase: 0 },
        daily: { view: 20, cart: 0, purchase: 0 },
      });
      expect(await t.tracking.productCounters(shopId, 'none')).toEqual({
        now: { view: 0, cart: 0, purchase: 0 },
        daily: { view: 0, cart: 0, purchase: 0 },
      });
    });

    it('deletes buckets that have left every window', async () => {
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('old')] }));
      expect(await countRows(db, 'product_counters', shopId)).toBe(2);
      t.clock.advance(27 * HOUR);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('new')] }));
      const rows = await db.db.selectFrom('product_counters').select('item_id').where('shop_id', '=', shopId).execute();
      expect(rows.map((r) => r.item_id)).toEqual(['new', 'new']);
    });
  });

  describe('sessions', () => {
    async function session(sid: string) {
      return db.db.selectFrom('sessions').selectAll().where('shop_id', '=', shopId).where('sid', '=', sid).executeTakeFirst();
    }

    it('continues a session after less than 2 hours idle and restarts it after exactly 2 hours', async () => {
      const start = t.clock.now();
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')], sid: 'Sess000001' }));
      t.clock.advance(2 * HOUR - 1);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')], sid: 'Sess000001' }));
      expect(await session('Sess000001')).toMatchObject({ did, started_at: start, last_activity_at: start + 2 * HOUR - 1 });
      t.clock.advance(2 * HOUR);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')], sid: 'Sess000001' }));
      expect(await session('Sess000001')).toMatchObject({ started_at: t.clock.now(), last_activity_at: t.clock.now() });
    });

    it('records the device as seen by its events, to the minute', async () => {
      const created = t.clock.now();
      t.clock.advance(59_999);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }));
      expect((await t.identity.findDevice(shopId, did))?.lastSeenAt).toBe(created);
      t.clock.advance(1);
      await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }));
      expect((await t.identity.findDevice(shopId, did))?.lastSeenAt).toBe(t.clock.now());
    });
  });

  describe('GET /init', () => {
    it('creates a device and a session when no did is given', async () => {
      const result = await t.tracking.initSession({ shopId });
      expect(result.did).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(result.sid).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(await t.tracking.deviceExists(shopId, result.did)).toBe(true);
      expect(await session(result.sid)).toMatchObject({ did: result.did, started_at: t.clock.now() });
    });

    it('creates an unknown well-formed did, and keeps a known one on its profile', async () => {
      const created = await t.tracking.initSession({ shopId, did: 'SdkMade123' });
      expect(created.did).toBe('SdkMade123');
      const device = await t.identity.findDevice(shopId, 'SdkMade123');
      expect(device).toBeDefined();
      t.clock.advance(1000);
      const again = await t.tracking.initSession({ shopId, did: 'SdkMade123' });
      expect(again.did).toBe('SdkMade123');
      expect(await t.identity.findDevice(shopId, 'SdkMade123')).toEqual({ ...device, lastSeenAt: t.clock.now() });
    });

    it('rejects a malformed did', async () => {
      await expect(t.tracking.initSession({ shopId, did: 'no' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('keeps a live sid, opens an unknown well-formed sid and replaces a malformed one', async () => {
      const first = await t.tracking.initSession({ shopId, did });
      t.clock.advance(2 * HOUR - 1);
      expect(await t.tracking.initSession({ shopId, did, sid: first.sid })).toEqual({ did, sid: first.sid });
      expect(await session(first.sid)).toMatchObject({ last_activity_at: t.clock.now() });

      expect(await t.tracking.initSession({ shopId, did, sid: 'NeverSeen1' })).toEqual({ did, sid: 'NeverSeen1' });
      expect(await session('NeverSeen1')).toMatchObject({ did, started_at: t.clock.now() });

      const replaced = await t.tracking.initSession({ shopId, did, sid: 'bad-sid' });
      expect(replaced.sid).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(await session('bad-sid')).toBeUndefined();
    });

    it('starts a new session when the given one ended 2 hours after its last activity, or is another device’s', async () => {
      const first = await t.tracking.initSession({ shopId, did });
      t.clock.advance(2 * HOUR);
      const next = await t.tracking.initSession({ shopId, did, sid: first.sid });
      expect(next.sid).not.toBe(first.sid);

      const other = await t.identity.createDevice(shopId);
      const theirs = await t.tracking.initSession({ shopId, did: other.did, sid: next.sid });
      expect(theirs.sid).not.toBe(next.sid);
    });

    async function session(sid: string) {
      return db.db.selectFrom('sessions').selectAll().where('shop_id', '=', shopId).where('sid', '=', sid).executeTakeFirst();
    }
  });

  describe('custom events', () => {
    beforeEach(async () => {
      await t.shops.createCustomEvent(shopId, { code: 'signup' });
    });

    it('refuses a code the shop has not created, storing nothing', async () => {
      const result = await t.tracking.recordCustom({ shopId, did, identifiers: {}, code: 'unknown', variables: {} });
      expect(result).toEqual({ ok: false, reason: 'unknown_event_code' });
      expect(await countRows(db, 'events', shopId)).toBe(0);
    });

    it('stores the event with its category, label, value, variables and payload at its own time', async () => {
      const past = t.clock.now() - HOUR;
      const result = await t.tracking.recordCustom({
        shopId,
        did,
        sid: 'Sess000002',
        identifiers: {},
        code: 'signup',
        category: 'c',
        label: 'l',
        value: 3,
        time: past,
        variables: { plan: 'gold', tags: ['a', 1, true] },
        payload: { step: 2 },
      });
      expect(result).toEqual({
        ok: true,
        event: {
          id: 1,
          shopId,
          profileId,
          did,
          event: 'signup',
          custom: true,
          time: past,
          items: [],
          params: { plan: 'gold', tags: ['a', 1, true], category: 'c', label: 'l', value: 3, payload: { step: 2 } },
        },
      });
      expect(await t.tracking.listEvents(shopId, did, 1)).toEqual([result.ok && result.event]);
    });

    it('resolves or creates the profile of identifiers given without a did', async () => {
      const first = await t.tracking.recordCustom({ shopId, identifiers: { email: ' Ann@Example.com ' }, code: 'signup', variables: {} });
      const second = await t.tracking.recordCustom({ shopId, identifiers: { email: 'ann@example.com' }, code: 'signup', variables: {} });
      if (!first.ok || !second.ok) throw new Error('expected stored events');
      expect(first.event.did).toBeNull();
      expect(second.event.profileId).toBe(first.event.profileId);
      expect((await t.identity.getProfile(shopId, first.event.profileId))?.email).toBe('ann@example.com');
    });

    it('refuses a well-formed did that GET /init never registered, storing and registering nothing', async () => {
      const result = await t.tracking.recordCustom({ shopId, did: 'BrandNew01', identifiers: {}, code: 'signup', variables: {} });
      expect(result).toEqual({ ok: false, reason: 'unknown_device' });
      expect(await t.identity.findDevice(shopId, 'BrandNew01')).toBeUndefined();
      expect(await countRows(db, 'events', shopId)).toBe(0);
    });

    it('rejects invalid identifiers and a request with none, before storing anything', async () => {
      await expect(t.tracking.recordCustom({ shopId, identifiers: { phone: '12' }, code: 'signup', variables: {} })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Parameter `phone` is not valid.',
        details: { field: 'phone' },
      });
      await expect(t.tracking.recordCustom({ shopId, identifiers: {}, code: 'signup', variables: {} })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Identifier is not valid.',
      });
      expect(t.tracking.commitStats().commits).toBe(0);
    });
  });

  describe('tenants', () => {
    it('keeps events, lists, orders, counters and ids of two shops apart, even for the same did', async () => {
      const other = (await createShopFixture(t)).shopId;
      const theirs = await t.identity.createDevice(other, did);
      await Promise.all([
        t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('x', 1, { price: 1 })], purchase: { orderId: 'O-1' } })),
        t.tracking.recordPush(push(other, did, 'purchase', { items: [item('x', 1, { price: 2 })], purchase: { orderId: 'O-1' } })),
        t.tracking.recordPush(push(other, did, 'cart', { items: [item('y')] })),
      ]);
      expect((await t.tracking.listEvents(shopId, did, 10)).map((e) => [e.id, e.event])).toEqual([[1, 'purchase']]);
      expect((await t.tracking.listEvents(other, did, 10)).map((e) => [e.id, e.event])).toEqual([
        [2, 'cart'],
        [1, 'purchase'],
      ]);
      expect((await t.tracking.listOrders(shopId, profileId)).map((o) => o.itemsTotal)).toEqual([100]);
      expect((await t.tracking.listOrders(other, theirs.profileId)).map((o) => o.itemsTotal)).toEqual([200]);
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [], wish: [] });
      expect(await t.tracking.getLists(other, theirs.profileId)).toEqual({ cart: [item('y')], wish: [] });
      expect((await t.tracking.productCounters(shopId, 'x')).now.purchase).toBe(1);
      expect((await t.tracking.productCounters(other, 'y')).now.cart).toBe(1);
      expect((await t.tracking.productCounters(shopId, 'y')).now.cart).toBe(0);
    });
  });
});
