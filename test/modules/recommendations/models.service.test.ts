import { describe, expect, it } from 'vitest';
import * as repo from '../../../src/modules/recommendations/models.repo.js';
import { BUILD_LEASE_MS, ModelsService } from '../../../src/modules/recommendations/models.service.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { item, push } from '../tracking/tracking-fixture.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/**
 * Hand-checked (Jaccard, pairs seen fewer than twice dropped): A is in 4 orders, B in 3,
 * all of B's with A; S is the best-seller (6 orders), with A twice and with C twice.
 * A–B = 3/(4+3−3) = 0.75, A–S = 2/(4+6−2) = 0.25, S–C = 2/(6+2−2) = 1/3, B–S once: dropped.
 */
const ORDERS = [
  ['A', 'B'],
  ['A', 'B'],
  ['A', 'B', 'S'],
  ['S', 'C'],
  ['S', 'C'],
  ['S', 'D'],
  ['S', 'E'],
  ['A', 'S'],
];
/** X and Y viewed together in three sessions (Jaccard 1); Z with them once only. */
const SESSIONS = [['X', 'Y'], ['X', 'Y', 'Z'], ['Y', 'X', 'Y'], ['Z']];

describe.each(TEST_DIALECTS)('recommendation models on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const models = () => bed.services.recommendationModels;
  let orderSeq = 0;
  /** A service over the same database that reads two rows a statement, so that baskets span chunks. */
  const smallChunks = () =>
    new ModelsService({ db: bed.db, clock: bed.clock, jobs: bed.services.jobs, shops: bed.services.shops, chunkRows: 2 });

  async function seed(orders: readonly (readonly string[])[], sessions: readonly (readonly string[])[] = []): Promise<void> {
    const { did } = await bed.services.identity.createDevice(bed.shopId);
    for (const basket of orders) {
      orderSeq++;
      await bed.services.tracking.recordPush(
        push(bed.shopId, did, 'purchase', { items: basket.map((id) => item(id)), purchase: { orderId: `order-${orderSeq}` } }),
      );
    }
    for (const [index, views] of sessions.entries()) {
      for (const id of views) {
        await bed.services.tracking.recordPush(push(bed.shopId, did, 'view', { sid: `session-${index}`, items: [item(id)] }));
        bed.clock.advance(1000);
      }
    }
  }

  it('ranks the items always bought together above the best-seller, and views of one session alike', async () => {
    await seed(ORDERS, SESSIONS);
    const outcome = await models().rebuild(bed.shopId);
    expect(outcome).toEqual({
      status: 'built',
      counts: { ordersRead: 8, sessionsRead: 4, itemsWithNeighbours: 6, durationMs: 0 },
    });
    expect(await models().neighbours(bed.shopId, 'also_bought', 'A')).toEqual([
      { id: 'B', score: 0.75 },
      { id: 'S', score: 0.25 },
    ]);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'B')).toEqual([{ id: 'A', score: 0.75 }]);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'S')).toEqual([
      { id: 'C', score: 0.333333 },
      { id: 'A', score: 0.25 },
    ]);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'D')).toEqual([]);
    expect(await models().neighbours(bed.shopId, 'also_viewed', 'X')).toEqual([{ id: 'Y', score: 1 }]);
    expect(await models().neighbours(bed.shopId, 'also_viewed', 'Z')).toEqual([]);
  });

  it('orders popular and buying_now by sales, and trending by growth over a minimum of recent sales', async () => {
    await seed(ORDERS);
    await models().rebuild(bed.shopId);
    const ids = async (kind: repo.ListKind) => (await models().shopList(bed.shopId, kind)).map((i) => i.id);
    // Every purchase at NOW: decay weights of 1, so scores are the counts; ties go by id.
    expect(await models().shopList(bed.shopId, 'popular')).toEqual([
      { id: 'S', score: 6 },
      { id: 'A', score: 4 },
      { id: 'B', score: 3 },
      { id: 'C', score: 2 },
      { id: 'D', score: 1 },
      { id: 'E', score: 1 },
    ]);
    expect(await ids('buying_now')).toEqual(['S', 'A', 'B', 'C', 'D', 'E']);
    // At least 3 recent purchases, no past: (recent + 1) / 1.
    expect(await models().shopList(bed.shopId, 'trending')).toEqual([
      { id: 'S', score: 7 },
      { id: 'A', score: 5 },
      { id: 'B', score: 4 },
    ]);
  });

  it('builds the same lists when every statement reads two rows, a session spanning chunks', async () => {
    await seed(ORDERS, SESSIONS);
    await smallChunks().rebuild(bed.shopId);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'A')).toEqual([
      { id: 'B', score: 0.75 },
      { id: 'S', score: 0.25 },
    ]);
    expect(await models().neighbours(bed.shopId, 'also_viewed', 'Y')).toEqual([{ id: 'X', score: 1 }]);
    expect((await models().status(bed.shopId)).sessionsRead).toBe(4);
  });

  it('shows a running build’s progress: the rows read so far grow chunk by chunk, and none once it finished', async () => {
    await seed(ORDERS, SESSIONS);
    let done = false;
    const build = smallChunks()
      .rebuild(bed.shopId)
      .finally(() => {
        done = true;
      });
    const seen: number[] = [];
    while (!done) {
      const status = await models().status(bed.shopId);
      if (status.building && status.rowsRead !== null) seen.push(status.rowsRead);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await build;
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeGreaterThan(2);
    expect((await models().status(bed.shopId)).rowsRead).toBeNull();
  });

  it('replaces every list of the previous build, dropping items left without neighbours', async () => {
    await seed(ORDERS);
    await models().rebuild(bed.shopId);
    // The orders holding B go: A keeps one order with S (once: dropped); S–C becomes 2/(5+2−2).
    await bed.db.db.deleteFrom('orders').where('shop_id', '=', bed.shopId).where('items', 'like', '%"B"%').execute();
    bed.clock.advance(60_000);
    await models().rebuild(bed.shopId);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'A')).toEqual([]);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'B')).toEqual([]);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'S')).toEqual([{ id: 'C', score: 0.4 }]);
    expect((await models().shopList(bed.shopId, 'popular')).map((i) => i.id)).toEqual(['S', 'C', 'A', 'D', 'E']);
    const status = await models().status(bed.shopId);
    expect(status).toMatchObject({ builtAt: NOW + 60_000, building: false, ordersRead: 5, itemsWithNeighbours: 2 });
  });

  it('does not start a second build while another holds the claim, and takes over a claim past its lease', async () => {
    await seed(ORDERS);
    await repo.ensureBuildRow(bed.db.db, bed.shopId);
    expect(await repo.claimBuild(bed.db.db, bed.shopId, 'another-build', NOW, NOW + BUILD_LEASE_MS)).toBe(true);
    expect(await models().rebuild(bed.shopId)).toEqual({ status: 'busy' });
    expect(await models().shopList(bed.shopId, 'popular')).toEqual([]);
    expect(await models().status(bed.shopId)).toMatchObject({ builtAt: null, building: true, buildingSince: NOW });

    // The other build died: once its lease ran out, its claim is taken over.
    bed.clock.advance(BUILD_LEASE_MS + 1);
    expect(await models().status(bed.shopId)).toMatchObject({ building: false });
    expect((await models().rebuild(bed.shopId)).status).toBe('built');
    expect(await models().status(bed.shopId)).toMatchObject({ builtAt: NOW + BUILD_LEASE_MS + 1, building: false });
    // The dead build's late finish finds its claim gone and stores nothing.
    expect(
      await repo.finishBuild(bed.db.db, bed.shopId, 'another-build', NOW, {
        ordersRead: 0,
        sessionsRead: 0,
        itemsWithNeighbours: 0,
        durationMs: 0,
      }),
    ).toBe(false);
  });

  it('gives the build claim to exactly one of 100 concurrent claims', async () => {
    // The claims race on the conditional UPDATE itself: two whole builds raced only when the
    // first had not finished before the second claimed, which a loaded machine did not hold.
    await repo.ensureBuildRow(bed.db.db, bed.shopId);
    const claims = await Promise.all(
      Array.from({ length: 100 }, (_, i) => repo.claimBuild(bed.db.db, bed.shopId, `token-${i}`, NOW, NOW + BUILD_LEASE_MS)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await models().rebuild(bed.shopId)).toEqual({ status: 'busy' });
  });

  it('keeps the previous lists serving when a build fails midway, and records why', async () => {
    await seed(ORDERS);
    await models().rebuild(bed.shopId);
    const before = await models().neighbours(bed.shopId, 'also_bought', 'A');
    await seed([
      ['A', 'C'],
      ['A', 'C'],
    ]);
    // The last order cannot be read: the build fails after it has read (and counted) chunks before it.
    const last = await bed.db.db
      .selectFrom('orders')
      .select('id')
      .where('shop_id', '=', bed.shopId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await bed.db.db.updateTable('orders').set({ items: '[{"id":' }).where('shop_id', '=', bed.shopId).where('id', '=', last.id).execute();
    bed.clock.advance(60_000);
    await expect(smallChunks().rebuild(bed.shopId)).rejects.toThrow(SyntaxError);
    expect(await models().neighbours(bed.shopId, 'also_bought', 'A')).toEqual(before);
    expect(await models().shopList(bed.shopId, 'popular')).toHaveLength(6);
    const status = await models().status(bed.shopId);
    expect(status).toMatchObject({ builtAt: NOW, building: false, lastErrorAt: NOW + 60_000, ordersRead: 8 });
    expect(status.lastError).toEqual(expect.any(String));
    // The claim was released: the next build runs.
    await bed.db.db
      .updateTable('orders')
      .set({ items: '[{"id":"A","amount":1}]' })
      .where('shop_id', '=', bed.shopId)
      .where('id', '=', last.id)
      .execute();
    expect((await models().rebuild(bed.shopId)).status).toBe('built');
    expect(await models().status(bed.shopId)).toMatchObject({ lastError: null, ordersRead: 10 });
  });

  it('answers 404 for a shop that does not exist', async () => {
    await expect(models().rebuild('abcdef0123456789abcdef01234567')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(models().status('abcdef0123456789abcdef01234567')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
