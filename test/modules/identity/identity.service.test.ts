import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import { ManualClock } from '../../../src/clock.js';
import type { Database } from '../../../src/db/types.js';
import { AppError } from '../../../src/errors.js';
import { IdentityService, type MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import { Late } from '../../../src/late.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

describe.each(TEST_DIALECTS)('identity service on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  let identity: IdentityService;
  /** The merge participants a test lists, as the composition root lists the modules'. */
  let participants: MergeParticipant[];
  let shopId: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    participants = [];
    identity = new IdentityService({ db, clock, mergeParticipants: Late.of(participants) });
    shopId = (await createShopFixture({ shops })).shopId;
  });

  /** A device whose anonymous profile is created now, then the clock moves on a second. */
  async function newDevice(): Promise<{ did: string; profileId: number }> {
    const device = await identity.createDevice(shopId);
    clock.advance(1000);
    return device;
  }

  async function liveProfileCount(): Promise<number> {
    const row = await db.db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('shop_id', '=', shopId)
      .where('merged_into', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('devices', () => {
    it('creates a device with a generated did and its own anonymous profile', async () => {
      const { did, profileId, created } = await identity.createDevice(shopId);
      expect(did).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(created).toBe(true);
      expect(await identity.findDevice(shopId, did)).toEqual({
        did,
        profileId,
        createdAt: clock.now(),
        lastSeenAt: clock.now(),
      });
      expect(await identity.getProfile(shopId, profileId)).toMatchObject({
        id: profileId,
        email: null,
        phone: null,
        externalId: null,
        properties: {},
        devices: [did],
      });
    });

    it('returns the existing device when a known did is created again', async () => {
      const first = await identity.createDevice(shopId, 'abcDEF1234');
      const second = await identity.createDevice(shopId, 'abcDEF1234');
      expect(first).toEqual({ did: 'abcDEF1234', profileId: first.profileId, created: true });
      expect(second).toEqual({ did: 'abcDEF1234', profileId: first.profileId, created: false });
      expect(await liveProfileCount()).toBe(1);
    });

    it('rejects a malformed did', async () => {
      await expect(identity.createDevice(shopId, 'INVALID_ID')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'did' },
      });
    });

    it('moves last_seen_at when a device is touched', async () => {
      const { did } = await newDevice();
      clock.advance(60_000);
      expect(await identity.touchDevice(shopId, did)).toBe(true);
      expect((await identity.findDevice(shopId, did))?.lastSeenAt).toBe(clock.now());
      expect(await identity.touchDevice(shopId, '0000000000')).toBe(false);
    });
  });

  describe('linking', () => {
    it("links a normalised email to the device's profile", async () => {
      const { did, profileId } = await newDevice();
      const result = await identity.resolveProfile(shopId, { did, email: '  Ann@Example.COM ' });
      expect(result).toEqual({ profileId, created: false, merges: [], relinkedDevice: null, ignored: [] });
      expect((await identity.getProfile(shopId, profileId))?.email).toBe('ann@example.com');
      expect(await identity.findProfiles(shopId, { phone: null, email: 'ANN@example.com' })).toMatchObject([
        { id: profileId, devices: [did] },
      ]);
    });

    it('finds the same profile by a phone written another way', async () => {
      const first = await identity.resolveProfile(shopId, { phone: '+7 (912) 345-67-89' });
      const second = await identity.resolveProfile(shopId, { phone: '89123456789' });
      expect(first.created).toBe(true);
      expect(second).toMatchObject({ profileId: first.profileId, created: false });
      expect((await identity.getProfile(shopId, first.profileId))?.phone).toBe('79123456789');
    });

    it('creates an unknown but well-formed did on the resolved profile', async () => {
      const { profileId } = await identity.resolveProfile(shopId, { email: 'ann@x.ru' });
      const again = await identity.resolveProfile(shopId, { did: 'zzzzzzzzz1', email: 'ann@x.ru' });
      expect(again.profileId).toBe(profileId);
      expect((await identity.findDevice(shopId, 'zzzzzzzzz1'))?.profileId).toBe(profileId);
    });

    it('names the invalid parameter, and refuses an event without any identifier', async () => {
      const { did } = await newDevice();
      const error = await identity.resolveProfile(shopId, { did, phone: '7912abc4567' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Parameter `phone` is not valid.',
        details: { field: 'phone' },
      });
      await expect(identity.resolveProfile(shopId, { email: null })).rejects.toMatchObject({
        message: 'Identifier is not valid.',
      });
      expect((await identity.getProfile(shopId, (await identity.findDevice(shopId, did))!.profileId))?.phone).toBeNull();
    });
  });

  describe('merging', () => {
    it("merges another device's profile into the older one when the same email arrives from it", async () => {
      const d1 = await newDevice();
      await identity.resolveProfile(shopId, { did: d1.did, email: 'ann@x.ru' });
      const d2 = await newDevice();

      const result = await identity.resolveProfile(shopId, { did: d2.did, email: 'ann@x.ru' });

      expect(result).toMatchObject({
        profileId: d1.profileId,
        created: false,
        merges: [{ fromProfileId: d2.profileId, intoProfileId: d1.profileId, reason: 'device_identified' }],
      });
      expect(await identity.getProfile(shopId, d1.profileId)).toMatchObject({
        email: 'ann@x.ru',
        devices: [d1.did, d2.did],
      });
      // The merged id is never a separate profile: it leads to the survivor.
      expect((await identity.getProfile(shopId, d2.profileId))?.id).toBe(d1.profileId);
      expect(await identity.getProfileOnly(shopId, d2.profileId)).toMatchObject({ id: d1.profileId, email: 'ann@x.ru' });
      expect(await identity.getProfileOnly(shopId, d1.profileId)).not.toHaveProperty('devices');
      expect(await identity.getProfileOnly(shopId, 987_654_321)).toBeUndefined();
      expect((await identity.findProfiles(shopId, { did: d2.did })).map((p) => p.id)).toEqual([d1.profileId]);
      expect(await liveProfileCount()).toBe(1);
      expect(await identity.listMerges(shopId, d2.profileId)).toEqual([
        {
          id: expect.any(Number),
          fromProfileId: d2.profileId,
          intoProfileId: d1.profileId,
          reason: 'device_identified',
          identifiers: { event: { email: 'ann@x.ru', did: d2.did }, merged: {} },
          createdAt: clock.now(),
        },
      ]);
    });

    it('merges into the older profile even when the younger holds the identifier; older properties win', async () => {
      const older = await newDevice();
      const younger = await newDevice();
      await identity.resolveProfile(shopId, { did: younger.did, email: 'ann@x.ru', phone: '9123456789' });
      await setProperties(older.profileId, { name: 'Ann', city: 'Omsk' });
      await setProperties(younger.profileId, { name: 'Anna', age: 30 });

      const result = await identity.resolveProfile(shopId, { did: older.did, email: 'ann@x.ru' });

      expect(result.profileId).toBe(older.profileId);
      expect(result.merges).toEqual([{ fromProfileId: younger.profileId, intoProfileId: older.profileId, reason: 'device_identified' }]);
      expect(await identity.getProfile(shopId, older.profileId)).toMatchObject({
        email: 'ann@x.ru',
        phone: '79123456789',
        properties: { name: 'Ann', city: 'Omsk', age: 30 },
        devices: [older.did, younger.did],
      });
    });

    it('merges profiles that two identifiers of one event connect, recording the shared identifier', async () => {
      const byEmail = await identity.resolveProfile(shopId, { email: 'ann@x.ru' });
      clock.advance(1000);
      const byPhone = await identity.resolveProfile(shopId, { phone: '79990000001' });

      const result = await identity.resolveProfile(shopId, { email: 'ann@x.ru', phone: '79990000001' });

      expect(result.merges).toEqual([{ fromProfileId: byPhone.profileId, intoProfileId: byEmail.profileId, reason: 'shared_phone' }]);
      expect(await identity.listMerges(shopId, byEmail.profileId)).toMatchObject([
        {
          reason: 'shared_phone',
          identifiers: { event: { email: 'ann@x.ru', phone: '79990000001' }, merged: { phone: '79990000001' } },
        },
      ]);
      expect(await identity.findProfiles(shopId, { phone: '79990000001' })).toMatchObject([
        { id: byEmail.profileId, email: 'ann@x.ru', phone: '79990000001' },
      ]);
    });

    it('never merges two profiles with different emails; the device moves to the identified one', async () => {
      const ann = await newDevice();
      await identity.resolveProfile(shopId, { did: ann.did, email: 'ann@x.ru' });
      const bob = await newDevice();
      await identity.resolveProfile(shopId, { did: bob.did, email: 'bob@x.ru' });

      // Ann logs in on Bob's computer.
      const result = await identity.resolveProfile(shopId, { did: bob.did, email: 'ann@x.ru' });

      expect(result).toMatchObject({
        profileId: ann.profileId,
        merges: [],
        relinkedDevice: { did: bob.did, fromProfileId: bob.profileId },
      });
      expect(await liveProfileCount()).toBe(2);
      expect(await identity.getProfile(shopId, bob.profileId)).toMatchObject({
        id: bob.profileId,
        email: 'bob@x.ru',
        devices: [],
      });
      expect((await identity.getProfile(shopId, ann.profileId))?.devices).toEqual([ann.did, bob.did]);
      expect(await identity.listMerges(shopId, bob.profileId)).toMatchObject([
        { fromProfileId: bob.profileId, intoProfileId: ann.profileId, reason: 'device_relinked' },
      ]);
    });

    it('never merges two profiles with different phones', async () => {
      const first = await identity.resolveProfile(shopId, { email: 'ann@x.ru', phone: '79990000001' });
      const second = await identity.resolveProfile(shopId, { phone: '79990000002' });

      const result = await identity.resolveProfile(shopId, { email: 'ann@x.ru', phone: '79990000002' });

      expect(result).toMatchObject({
        profileId: first.profileId,
        merges: [],
        ignored: [{ kind: 'phone', value: '79990000002', reason: 'held_by_other_profile', profileId: second.profileId }],
      });
      expect((await identity.getProfile(shopId, first.profileId))?.phone).toBe('79990000001');
      expect((await identity.getProfile(shopId, second.profileId))?.phone).toBe('79990000002');
      expect(await liveProfileCount()).toBe(2);
    });

    it('creates a new profile for another person on a device and moves the device to it', async () => {
      const device = await newDevice();
      await identity.resolveProfile(shopId, { did: device.did, email: 'ann@x.ru' });

      const result = await identity.resolveProfile(shopId, { did: device.did, email: 'bob@x.ru' });

      expect(result).toMatchObject({ created: true, relinkedDevice: { did: device.did, fromProfileId: device.profileId } });
      expect(await identity.getProfile(shopId, result.profileId)).toMatchObject({
        email: 'bob@x.ru',
        devices: [device.did],
      });
      expect(await identity.getProfile(shopId, device.profileId)).toMatchObject({ email: 'ann@x.ru', devices: [] });
    });

    it('leads every id of a chain of merges to the last survivor', async () => {
      const p1 = await newDevice();
      const p2 = await newDevice();
      const p3 = await newDevice();
      await identity.resolveProfile(shopId, { did: p2.did, email: 'ann@x.ru' });
      await identity.resolveProfile(shopId, { did: p3.did, email: 'ann@x.ru' }); // p3 into p2
      await identity.resolveProfile(shopId, { did: p1.did, email: 'ann@x.ru' }); // p2 into p1

      for (const id of [p1.profileId, p2.profileId, p3.profileId]) {
        expect(await identity.currentProfileId(shopId, id)).toBe(p1.profileId);
      }
      expect((await identity.getProfile(shopId, p1.profileId))?.devices).toEqual([p1.did, p2.did, p3.did]);
      expect(await liveProfileCount()).toBe(1);
    });
  });

  describe('merge participants', () => {
    it('calls each participant with (from, into) inside the merge transaction', async () => {
      const calls: unknown[] = [];
      participants.push({
        name: 'test',
        merge: async (trx, shop, fromId, intoId) => {
          // Both profiles are still live: the participant runs before the tombstone.
          const live = await trx
            .selectFrom('profiles')
            .select('id')
            .where('shop_id', '=', shop)
            .where('merged_into', 'is', null)
            .where('id', 'in', [fromId, intoId])
            .execute();
          calls.push({ shop, fromId, intoId, live: live.length });
          await trx
            .insertInto('custom_event_codes')
            .values({ shop_id: shop, code: `moved_${fromId}`, name: null, created_at: clock.now() })
            .execute();
        },
      });
      const d1 = await newDevice();
      await identity.resolveProfile(shopId, { did: d1.did, email: 'ann@x.ru' });
      const d2 = await newDevice();

      await identity.resolveProfile(shopId, { did: d2.did, email: 'ann@x.ru' });

      expect(calls).toEqual([{ shop: shopId, fromId: d2.profileId, intoId: d1.profileId, live: 2 }]);
      expect(await shops.hasCustomEvent(shopId, `moved_${d2.profileId}`)).toBe(true);
    });

    it('leaves nothing half-merged when a participant throws', async () => {
      participants.push({
        name: 'test',
        merge: async (trx, shop, fromId) => {
          await trx
            .insertInto('custom_event_codes')
            .values({ shop_id: shop, code: `moved_${fromId}`, name: null, created_at: clock.now() })
            .execute();
        },
      });
      participants.push({ name: 'test', merge: () => Promise.reject(new Error('cart store is down')) });
      const d1 = await newDevice();
      await identity.resolveProfile(shopId, { did: d1.did, email: 'ann@x.ru' });
      const d2 = await newDevice();

      await expect(identity.resolveProfile(shopId, { did: d2.did, email: 'ann@x.ru', phone: '79990000001' })).rejects.toThrow(
        'cart store is down',
      );

      await expectUnmerged(d1, d2);
    });

    it("undoes only its own part inside a caller's transaction, which stays usable", async () => {
      // The second participant fails in the database, which on PostgreSQL aborts the
      // whole transaction unless identity's savepoint is rolled back.
      const moveRow = (trx: Transaction<Database>, shop: string, fromId: number) =>
        trx
          .insertInto('custom_event_codes')
          .values({ shop_id: shop, code: `moved_${fromId}`, name: null, created_at: clock.now() })
          .execute()
          .then(() => undefined);
      participants.push({ name: 'test', merge: moveRow });
      participants.push({ name: 'test', merge: moveRow });
      const d1 = await newDevice();
      await identity.resolveProfile(shopId, { did: d1.did, email: 'ann@x.ru' });
      const d2 = await newDevice();

      await db.db.transaction().execute(async (trx) => {
        await expect(identity.resolveProfile(shopId, { did: d2.did, email: 'ann@x.ru' }, trx)).rejects.toThrow();
        await trx
          .insertInto('custom_event_codes')
          .values({ shop_id: shopId, code: 'after_failure', name: null, created_at: clock.now() })
          .execute();
      });

      expect(await shops.hasCustomEvent(shopId, 'after_failure')).toBe(true);
      await expectUnmerged(d1, d2);
    });

    async function expectUnmerged(d1: { did: string; profileId: number }, d2: { did: string; profileId: number }): Promise<void> {
      expect(await liveProfileCount()).toBe(2);
      expect(await identity.getProfile(shopId, d1.profileId)).toMatchObject({ email: 'ann@x.ru', devices: [d1.did] });
      expect(await identity.getProfile(shopId, d2.profileId)).toMatchObject({
        id: d2.profileId,
        email: null,
        phone: null,
        devices: [d2.did],
      });
      expect(await identity.listMerges(shopId, d2.profileId)).toEqual([]);
      expect(await shops.hasCustomEvent(shopId, `moved_${d2.profileId}`)).toBe(false);
    }
  });

  describe('transactions and concurrency', () => {
    it("commits nothing when the caller's transaction rolls back", async () => {
      await db.db
        .transaction()
        .execute(async (trx) => {
          await identity.resolveProfile(shopId, { email: 'ann@x.ru', did: 'rolledBack' }, trx);
          throw new Error('batch failed');
        })
        .catch(() => undefined);
      expect(await identity.findProfiles(shopId, { email: 'ann@x.ru' })).toEqual([]);
      expect(await identity.findDevice(shopId, 'rolledBack')).toBeUndefined();
    });

    it('ends with exactly one profile when ten requests bring the same new email at once', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, () => identity.resolveProfile(shopId, { email: 'rush@x.ru' })));
      expect(new Set(results.map((r) => r.profileId)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(await liveProfileCount()).toBe(1);
    });

    it('ends with one profile holding every device when ten devices bring the same new email at once', async () => {
      const devices = [];
      for (let i = 0; i < 10; i += 1) devices.push(await newDevice());
      await Promise.all(devices.map((d) => identity.resolveProfile(shopId, { did: d.did, email: 'rush@x.ru' })));

      const [profile, ...others] = await identity.findProfiles(shopId, { email: 'rush@x.ru' });
      expect(others).toEqual([]);
      // All merged into the oldest device's profile.
      expect(profile?.id).toBe(devices[0]?.profileId);
      expect([...(profile?.devices ?? [])].sort()).toEqual(devices.map((d) => d.did).sort());
      expect(await liveProfileCount()).toBe(1);
    });
  });

  describe('tenant isolation', () => {
    it("never matches another shop's identifiers, devices or profile ids", async () => {
      const other = (await createShopFixture({ shops })).shopId;
      const theirs = await identity.createDevice(other);
      await identity.resolveProfile(other, { did: theirs.did, email: 'ann@x.ru', phone: '79990000001' });

      const ours = await identity.resolveProfile(shopId, { email: 'ann@x.ru', phone: '79990000001' });

      expect(ours.created).toBe(true);
      expect(ours.profileId).not.toBe(theirs.profileId);
      expect((await identity.findProfiles(shopId, { email: 'ann@x.ru' })).map((p) => p.id)).toEqual([ours.profileId]);
      expect(await identity.findProfiles(shopId, { did: theirs.did })).toEqual([]);
      expect(await identity.findDevice(shopId, theirs.did)).toBeUndefined();
      expect(await identity.getProfile(shopId, theirs.profileId)).toBeUndefined();
      // The same did in our shop is a new device of ours, not theirs.
      const sameDid = await identity.resolveProfile(shopId, { did: theirs.did });
      expect(sameDid.created).toBe(true);
      expect((await identity.getProfile(other, theirs.profileId))?.devices).toEqual([theirs.did]);
    });
  });

  async function setProperties(profileId: number, properties: Record<string, unknown>): Promise<void> {
    await db.db
      .updateTable('profiles')
      .set({ properties: JSON.stringify(properties) })
      .where('shop_id', '=', shopId)
      .where('id', '=', profileId)
      .execute();
  }
});
