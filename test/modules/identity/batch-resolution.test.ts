import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { AppError } from '../../../src/errors.js';
import type { Identifiers } from '../../../src/modules/identity/domain/identifiers.js';
import { IdentityService, type BatchPerson, type MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import { Late } from '../../../src/late.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

/**
 * identity.resolveBatch must leave the profiles exactly as resolveProfile would, called
 * for each person in order: checked on random batches over a small pool of identifiers
 * (so that people share identifiers, conflict and merge), one shop resolved each way.
 */

/** A small seeded generator (mulberry32), so that a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One identifier of a random kind: stored profiles start fragmented, so that batches link them. */
function randomFragment(next: () => number): Identifiers {
  const entries = Object.entries(randomPerson(next));
  const [kind, value] = entries[Math.floor(next() * entries.length)]!;
  return { [kind]: value };
}

function randomPerson(next: () => number): Identifiers {
  const pick = (n: number) => Math.floor(next() * n);
  const person: Identifiers = {};
  while (Object.keys(person).length === 0) {
    if (next() < 0.5) person.email = `e${pick(6)}@example.org`;
    if (next() < 0.5) person.phone = `7900000000${pick(6)}`;
    if (next() < 0.25) person.externalId = `x${pick(4)}`;
    if (next() < 0.15) person.loyaltyId = `l${pick(3)}`;
  }
  return person;
}

describe.each(TEST_DIALECTS)('identity batch resolution on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  let identity: IdentityService;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
    identity = new IdentityService({ db, clock });
  });
  afterAll(async () => {
    await db.cleanup();
  });

  /** Each live profile as its identifiers, sorted: what the two ways must agree on. */
  async function partition(shopId: string): Promise<string[]> {
    const rows = await db.db
      .selectFrom('profiles')
      .select(['email', 'phone', 'external_id', 'loyalty_id'])
      .where('shop_id', '=', shopId)
      .where('merged_into', 'is', null)
      .execute();
    return rows.map((r) => JSON.stringify([r.email, r.phone, r.external_id, r.loyalty_id])).sort();
  }

  async function identifiersOf(shopId: string, id: number): Promise<string> {
    const profile = await identity.getProfile(shopId, id);
    return JSON.stringify([profile?.email ?? null, profile?.phone ?? null, profile?.externalId ?? null, profile?.loyaltyId ?? null]);
  }

  const seen = { merges: 0, ignored: 0, creates: 0, updates: 0 };

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`agrees with one-by-one resolution (seed ${seed})`, async () => {
      const next = random(seed);
      const batchShop = (await createShopFixture({ shops })).shopId;
      const oneByOneShop = (await createShopFixture({ shops })).shopId;
      // Stored profiles, the same in both shops.
      for (let i = 0; i < 8; i += 1) {
        const person = i % 4 === 3 ? randomPerson(next) : randomFragment(next);
        await identity.resolveProfile(batchShop, person);
        await identity.resolveProfile(oneByOneShop, person);
        clock.advance(1000);
      }
      const people: BatchPerson[] = Array.from({ length: 25 }, () => ({ identifiers: randomPerson(next) }));

      const plan = await db.db.transaction().execute((trx) => identity.resolveBatch(batchShop, people, trx));
      seen.merges += plan.merges.length;
      seen.ignored += plan.ignored.flat().length;
      seen.creates += plan.creates.length;
      seen.updates += plan.updates.length;
      const oneByOne: number[] = [];
      for (const person of people) oneByOne.push((await identity.resolveProfile(oneByOneShop, person.identifiers)).profileId);

      expect(await partition(batchShop)).toEqual(await partition(oneByOneShop));
      for (const [i, id] of plan.profileIds.entries()) {
        const later = (await identity.currentProfileId(oneByOneShop, oneByOne[i]!)) as number;
        expect(await identifiersOf(batchShop, id)).toBe(await identifiersOf(oneByOneShop, later));
      }
    });
  }

  it('met merges, conflicts, new and changed profiles in those random batches', () => {
    expect(seen.merges).toBeGreaterThan(3);
    expect(seen.ignored).toBeGreaterThan(3);
    expect(seen.creates).toBeGreaterThan(3);
    expect(seen.updates).toBeGreaterThan(3);
  });

  it('merges stored profiles through the participants, and sets properties, the batch winning', async () => {
    const shopId = (await createShopFixture({ shops })).shopId;
    const merged: [number, number][] = [];
    const localParticipants: MergeParticipant[] = [];
    const local = new IdentityService({ db, clock, mergeParticipants: Late.of(localParticipants) });
    localParticipants.push({
      name: 'test',
      merge: (_trx, _shop, from, into) => {
        merged.push([from, into]);
        return Promise.resolve();
      },
    });
    const older = await local.resolveProfile(shopId, { email: 'ann@example.org' });
    clock.advance(1000);
    const younger = await local.resolveProfile(shopId, { phone: '79000000001' });
    await db.db
      .updateTable('profiles')
      .set({ properties: JSON.stringify({ size: 40, colour: 'red' }) })
      .where('shop_id', '=', shopId)
      .where('id', '=', younger.profileId)
      .execute();

    const plan = await db.db.transaction().execute((trx) =>
      local.resolveBatch(
        shopId,
        [
          { identifiers: { email: 'new@example.org' }, properties: { first: true } },
          { identifiers: { email: 'ann@example.org', phone: '79000000001' }, properties: { size: 42 } },
        ],
        trx,
      ),
    );
    expect(merged).toEqual([[younger.profileId, older.profileId]]);
    expect(plan.profileIds[1]).toBe(older.profileId);
    expect(plan).toMatchObject({ creates: [{ identifiers: { email: 'new@example.org' } }] });
    expect(await local.getProfile(shopId, older.profileId)).toMatchObject({
      email: 'ann@example.org',
      phone: '79000000001',
      properties: { size: 42, colour: 'red' },
    });
    expect((await local.getProfile(shopId, plan.profileIds[0]!))?.properties).toEqual({ first: true });
    expect((await local.listMerges(shopId, older.profileId))[0]).toMatchObject({ reason: 'shared_phone' });
  });

  it('leads every person to the live profile when a later person of the batch merges theirs away', async () => {
    const shopId = (await createShopFixture({ shops })).shopId;
    const stored = await identity.resolveProfile(shopId, { phone: '79000000002' });
    clock.advance(1000);
    const plan = await db.db
      .transaction()
      .execute((trx) =>
        identity.resolveBatch(
          shopId,
          [{ identifiers: { email: 'kim@example.org' } }, { identifiers: { email: 'kim@example.org', phone: '79000000002' } }],
          trx,
        ),
      );
    expect(plan.profileIds).toEqual([stored.profileId, stored.profileId]);
    expect(plan.creates).toEqual([]);
  });

  it('refuses a batch with a person without identifiers', async () => {
    const shopId = (await createShopFixture({ shops })).shopId;
    await expect(db.db.transaction().execute((trx) => identity.resolveBatch(shopId, [{ identifiers: {} }], trx))).rejects.toThrow(
      /at least one identifier/,
    );
  });

  it('answers CONFLICT when another writer took an identifier of a new profile meanwhile', async () => {
    const shopId = (await createShopFixture({ shops })).shopId;
    const racingParticipants: MergeParticipant[] = [];
    const racing = new IdentityService({ db, clock, mergeParticipants: Late.of(racingParticipants) });
    const older = await racing.resolveProfile(shopId, { email: 'old@example.org' });
    clock.advance(1000);
    await racing.resolveProfile(shopId, { phone: '79000000003' });
    // The merge of the batch's first person gives a concurrent writer its moment: it
    // creates the profile of the second person's email before the batch inserts it.
    racingParticipants.push({
      name: 'test',
      merge: async (trx, shop) => {
        await trx
          .insertInto('profiles')
          .values({
            shop_id: shop,
            id: 424242,
            email: 'fresh@example.org',
            phone: null,
            external_id: null,
            loyalty_id: null,
            telegram_id: null,
            properties: '{}',
            merged_into: null,
            created_at: clock.now(),
            updated_at: clock.now(),
          })
          .execute();
      },
    });
    const error = await db.db
      .transaction()
      .execute((trx) =>
        racing.resolveBatch(
          shopId,
          [{ identifiers: { email: 'old@example.org', phone: '79000000003' } }, { identifiers: { email: 'fresh@example.org' } }],
          trx,
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONFLICT');
    // The transaction rolled back: nothing of the batch is left.
    expect(await racing.findProfiles(shopId, { email: 'fresh@example.org' })).toEqual([]);
    expect(await racing.getProfile(shopId, older.profileId)).toMatchObject({ phone: null });
  });
});
