import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { closeResources } from '../../../src/process/shutdown.js';
import { createServices } from '../../../src/services.js';
import type { StoredEvent, TrackingSubscriber } from '../../../src/modules/tracking/tracking.types.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { countRows, item, push, trackingStack, type TrackingStack } from './tracking-fixture.js';

describe.each(TEST_DIALECTS)('tracking batches on %s', (dialect) => {
  let db: TestDb;
  let t: TrackingStack;
  let shopId: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    t = trackingStack(db);
    shopId = (await createShopFixture(t)).shopId;
  });

  describe('group commit', () => {
    it('commits 500 concurrent events in far fewer transactions, each stored exactly once', async () => {
      const devices = await Promise.all(Array.from({ length: 50 }, () => t.identity.createDevice(shopId)));
      const stored = await Promise.all(
        Array.from({ length: 500 }, (_, i) => {
          const device = devices[i % 50]!;
          return t.tracking.recordPush(
            push(shopId, device.did, 'cart', { items: [item(`p${i % 7}`)], sid: `S${String(i % 50).padStart(9, '0')}` }),
          );
        }),
      );
      const stats = t.tracking.commitStats();
      expect(stats.committed).toBe(500);
      expect(stats.commits).toBeLessThanOrEqual(10);

      const rows = await db.db.selectFrom('events').select(['id', 'did', 'profile_id']).where('shop_id', '=', shopId).execute();
      expect(rows).toHaveLength(500);
      expect(new Set(rows.map((r) => r.id)).size).toBe(500);
      expect(stored.map((e) => e.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
      // Every event landed on its device's profile.
      const profileOf = new Map(devices.map((d) => [d.did, d.profileId]));
      expect(rows.every((r) => r.profile_id === profileOf.get(r.did as string))).toBe(true);
      expect(await countRows(db, 'sessions', shopId)).toBe(50);
      expect((await t.tracking.productCounters(shopId, 'p0')).now.cart).toBe(72);
    });

    it('gives ids that grow with every commit, so that newest first is by id', async () => {
      const { did } = await t.identity.createDevice(shopId);
      const first = await t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }));
      const batch = await Promise.all([1, 2, 3].map(() => t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }))));
      expect([first, ...batch].map((e) => e.id)).toEqual([1, 2, 3, 4]);
      expect((await t.tracking.listEvents(shopId, did, 10)).map((e) => e.id)).toEqual([4, 3, 2, 1]);
    });

    it('fails only the bad event of a batch: the others are committed, the bad one leaves nothing', async () => {
      const { did, profileId } = await t.identity.createDevice(shopId);
      // A subscriber that throws for one event makes that event's transaction fail.
      t.subscribers.push({
        name: 'picky',
        accepts: (event) => {
          if (event.items.some((i) => i.id === 'poison')) throw new Error('cannot take this event');
          return false;
        },
        handle: () => Promise.resolve(),
      });
      const outcomes = await Promise.allSettled([
        t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a')] })),
        t.tracking.recordPush(push(shopId, did, 'cart', { items: [item('poison')] })),
        t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('b', 1, { price: 3 })], purchase: { orderId: 'K' } })),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('cannot take this event'));
      expect(t.tracking.commitStats()).toMatchObject({ splitBatches: 1, failed: 1, committed: 2 });
      expect((await t.tracking.listEvents(shopId, did, 10)).map((e) => e.event)).toEqual(['purchase', 'cart']);
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [item('a')], wish: [] });
      expect((await t.tracking.listOrders(shopId, profileId)).map((o) => o.orderId)).toEqual(['K']);
      expect((await t.tracking.productCounters(shopId, 'poison')).now.cart).toBe(0);
    });

    it('drain commits the pending events, then refuses new ones', async () => {
      const { did } = await t.identity.createDevice(shopId);
      const pending = Array.from({ length: 5 }, () => t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] })));
      await t.tracking.drain();
      expect(await countRows(db, 'events', shopId)).toBe(5);
      expect(await Promise.all(pending)).toHaveLength(5);
      await expect(t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }))).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
    });
    it('is drained by the process shutdown after the server stops accepting and before the database closes', async () => {
      const { did } = await t.identity.createDevice(shopId);
      const steps: string[] = [];
      const app = {
        close: () => {
          steps.push('server closed');
          return Promise.resolve();
        },
      };
      const database = {
        destroy: async () => {
          steps.push(`database closed with ${await countRows(db, 'events', shopId)} events`);
        },
      };
      const pending = [1, 2, 3].map(() => t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] })));
      expect(await closeResources({ app, tracking: t.tracking, db: database }, createLogger('silent'))).toBe(true);
      expect(steps).toEqual(['server closed', 'database closed with 3 events']);
      expect(await Promise.all(pending)).toHaveLength(3);
      await expect(t.tracking.recordPush(push(shopId, did, 'view', { items: [item('a')] }))).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
    });
  });

  describe('identity', () => {
    it('links the device’s profile to the identifiers an event carries', async () => {
      const { did, profileId } = await t.identity.createDevice(shopId);
      const event = await t.tracking.recordPush(
        push(shopId, did, 'cart', { items: [item('a')], identifiers: { email: 'Bob@Example.com', phone: '8 912 345-67-89' } }),
      );
      expect(event.profileId).toBe(profileId);
      expect(await t.identity.getProfile(shopId, profileId)).toMatchObject({ email: 'bob@example.com', phone: '79123456789' });
      expect(await t.tracking.getLists(shopId, profileId)).toEqual({ cart: [item('a')], wish: [] });
    });

    it('moves events, orders and lists to the survivor when identity merges two profiles', async () => {
      // The older profile: known by email, with a cart and an order.
      const older = await t.identity.resolveProfile(shopId, { did: 'OlderDev01', email: 'eve@example.com' });
      await t.tracking.recordPush(push(shopId, 'OlderDev01', 'cart', { items: [item('shared', 1), item('mine')] }));
      await t.tracking.recordPush(push(shopId, 'OlderDev01', 'wish', { items: [item('w1')] }));
      t.clock.advance(1000);
      // A younger anonymous profile on another device.
      const younger = await t.identity.createDevice(shopId, 'YoungDev01');
      await t.tracking.recordPush(push(shopId, 'YoungDev01', 'cart', { items: [item('shared', 9), item('theirs')] }));
      await t.tracking.recordPush(
        push(shopId, 'YoungDev01', 'purchase', { items: [item('z', 1, { price: 2 })], purchase: { orderId: 'Y-1' } }),
      );

      const resolved = await t.identity.resolveProfile(shopId, { did: 'YoungDev01', email: 'eve@example.com' });
      expect(resolved.profileId).toBe(older.profileId);
      expect(resolved.merges).toEqual([expect.objectContaining({ fromProfileId: younger.profileId, intoProfileId: older.profileId })]);

      const lists = await t.tracking.getLists(shopId, older.profileId);
      expect(lists.cart).toEqual(expect.arrayContaining([item('shared', 1), item('mine'), item('theirs')]));
      expect(lists.cart).toHaveLength(3);
      expect(lists.wish).toEqual([item('w1')]);
      // The merged id leads to the survivor's lists.
      expect(await t.tracking.getLists(shopId, younger.profileId)).toEqual(lists);
      expect((await t.tracking.listOrders(shopId, older.profileId)).map((o) => o.orderId)).toEqual(['Y-1']);
      const profiles = await db.db.selectFrom('events').select('profile_id').distinct().where('shop_id', '=', shopId).execute();
      expect(profiles).toEqual([{ profile_id: older.profileId }]);
      const leftover = await db.db
        .selectFrom('profile_lists')
        .select('list')
        .where('shop_id', '=', shopId)
        .where('profile_id', '=', younger.profileId)
        .execute();
      expect(leftover).toEqual([]);
    });

    it('merges inside the batch when an event’s identifiers join two profiles, every event landing on the survivor', async () => {
      const older = await t.identity.resolveProfile(shopId, { did: 'OlderDev02', email: 'kim@example.com' });
      t.clock.advance(1000);
      const younger = await t.identity.createDevice(shopId, 'YoungDev02');
      const events = await Promise.all([
        // Resolves to the younger profile and gives it the phone …
        t.tracking.recordPush(push(shopId, 'YoungDev02', 'view', { items: [item('v')], identifiers: { phone: '9123456780' } })),
        // … which this event then merges into the older one (same batch).
        t.tracking.recordPush(push(shopId, 'YoungDev02', 'cart', { items: [item('c')], identifiers: { email: 'kim@example.com' } })),
        t.tracking.recordPush(push(shopId, 'YoungDev02', 'wish', { items: [item('w')] })),
      ]);
      expect(t.tracking.commitStats().commits).toBe(1);
      expect(events.map((e) => e.profileId)).toEqual([older.profileId, older.profileId, older.profileId]);
      const stored = await db.db.selectFrom('events').select('profile_id').distinct().where('did', '=', 'YoungDev02').execute();
      expect(stored).toEqual([{ profile_id: older.profileId }]);
      expect((await t.identity.findDevice(shopId, 'YoungDev02'))?.profileId).toBe(older.profileId);
      expect(await t.identity.getProfile(shopId, older.profileId)).toMatchObject({ email: 'kim@example.com', phone: '79123456780' });
      expect(await t.tracking.getLists(shopId, older.profileId)).toEqual({ cart: [item('c')], wish: [item('w')] });
      expect(await t.identity.currentProfileId(shopId, younger.profileId)).toBe(older.profileId);
    });
  });

  describe('subscribers', () => {
    it('enqueues nothing when no subscriber is registered', async () => {
      await db.db.deleteFrom('jobs').execute();
      const { did } = await t.identity.createDevice(shopId);
      await t.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a')] }));
      expect(await countRows(db, 'jobs')).toBe(0);
    });

    it('delivers each accepted event to its subscriber through a tracking.deliver job', async () => {
      await db.db.deleteFrom('jobs').execute();
      const config = loadConfig({ LOG_LEVEL: 'silent' });
      const handled: StoredEvent[] = [];
      const purchases: TrackingSubscriber = {
        name: 'purchases',
        accepts: (event) => event.event === 'purchase',
        handle: (event) => {
          handled.push(event);
          return Promise.resolve();
        },
      };
      const services = createServices({ config, db, clock: t.clock, probes: { trackingSubscribers: [purchases] } });
      const runner = createJobRunner({ config, services, clock: t.clock, log: createLogger('silent') });
      expect(() => createServices({ config, db, clock: t.clock, probes: { trackingSubscribers: [purchases, purchases] } })).toThrow(
        /already registered/,
      );

      const { did } = await services.identity.createDevice(shopId);
      await services.tracking.recordPush(push(shopId, did, 'cart', { items: [item('a')] }));
      const purchase = await services.tracking.recordPush(push(shopId, did, 'purchase', { items: [item('a', 2, { price: 5 })] }));
      // The app's own subscribers that take purchases (messaging's attribution) get jobs of their own.
      const ours = async () =>
        (await db.db.selectFrom('jobs').select(['name', 'payload', 'status']).execute()).filter(
          (job) => (JSON.parse(job.payload) as { subscriber: string }).subscriber === 'purchases',
        );
      expect(await ours()).toEqual([
        { name: 'tracking.deliver', payload: JSON.stringify({ shopId, eventId: purchase.id, subscriber: 'purchases' }), status: 'queued' },
      ]);
      expect(handled).toEqual([]);

      await runner.runDue();
      expect(handled).toEqual([purchase]);
      expect((await ours())[0]?.status).toBe('done');
    });

    it('fails a delivery job for a subscriber this process does not have, with a clear error', async () => {
      await db.db.deleteFrom('jobs').execute();
      const config = loadConfig({ LOG_LEVEL: 'silent' });
      const services = createServices({ config, db, clock: t.clock });
      const runner = createJobRunner({ config, services, clock: t.clock, log: createLogger('silent') });
      const { job } = await services.jobs.enqueue('tracking.deliver', { shopId, eventId: 1, subscriber: 'gone' });
      expect(await runner.runDue()).toBe(1);
      expect(await services.jobs.get(job.id)).toMatchObject({
        lastError: 'No tracking subscriber named "gone" is registered in this process',
      });
    });
  });
});
