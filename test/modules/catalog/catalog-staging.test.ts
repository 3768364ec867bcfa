import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FeedStager, MAX_WRITES } from '../../../src/modules/catalog/catalog.staging.js';
import { emptyRawOffer, type FeedItem } from '../../../src/modules/catalog/domain/feed-types.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';

/** FeedStager's write-behind (catalog.staging.ts): batches written while the next is parsed. */
describe.each(TEST_DIALECTS)('FeedStager on %s', (dialect) => {
  let testDb: TestDb;
  const shopId = 'f'.repeat(30);
  let generation = 0;

  beforeAll(async () => {
    testDb = await createTestDb(dialect);
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  function offer(id: string): FeedItem {
    return { kind: 'offer', offer: { ...emptyRawOffer(), id, name: `Product ${id}`, price: '10', url: `https://shop.example/${id}` } };
  }

  async function stagedIds(gen: number): Promise<string[]> {
    const rows = await testDb.db
      .selectFrom('catalog_products')
      .select('id')
      .where('shop_id', '=', shopId)
      .where('generation', '=', gen)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Adds offers until the stager wants a flush, `batches` times, flushing each. */
  async function stageBatches(stager: FeedStager, prefix: string, batches: number): Promise<void> {
    let n = 0;
    for (let batch = 0; batch < batches; batch++) {
      while (!stager.shouldFlush) stager.add(offer(`${prefix}${String((n += 1)).padStart(5, '0')}`));
      await stager.flush();
    }
  }

  it('has every flushed batch written once settle() resolves', async () => {
    generation += 1;
    const stager = new FeedStager(testDb.db, shopId, generation, dialect, () => Promise.resolve());
    await stageBatches(stager, 'a', 3);
    stager.add(offer('z-last'));
    await stager.flush();
    await stager.settle();
    const ids = await stagedIds(generation);
    expect(ids).toHaveLength(stager.products);
    expect(ids).toContain('z-last');
  });

  it('reports a failed write at the first flush that waits for it, and settles after that', async () => {
    generation += 1;
    let writes = 0;
    const stager = new FeedStager(testDb.db, shopId, generation, dialect, () => {
      writes += 1;
      return writes === 1 ? Promise.reject(new Error('the disk is full')) : Promise.resolve();
    });
    await stageBatches(stager, 'b', 1);
    // The first batch is the one that fails: the next starts once its write has failed.
    await vi.waitFor(() => expect(writes).toBe(1));
    // Until MAX_WRITES batches are pending, a flush does not wait for the failing one.
    for (let pending = 1; pending < MAX_WRITES[dialect]; pending++) {
      while (!stager.shouldFlush) stager.add(offer(`c${stager.products}`));
      await expect(stager.flush()).resolves.toBeUndefined();
    }
    while (!stager.shouldFlush) stager.add(offer(`d${stager.products}`));
    await expect(stager.flush()).rejects.toThrow('the disk is full');
    await expect(stager.settle()).resolves.toBeUndefined();
    // The failing batch was rolled back in its transaction (a failing import deletes the rest).
    expect((await stagedIds(generation)).filter((id) => id.startsWith('b'))).toEqual([]);
  });

  it.runIf(MAX_WRITES[dialect] > 1)('settles only once every write has ended, even when the first failed', async () => {
    generation += 1;
    let writes = 0;
    let releaseSecond: () => void = () => undefined;
    const stager = new FeedStager(testDb.db, shopId, generation, dialect, () => {
      writes += 1;
      if (writes === 1) return Promise.reject(new Error('the disk is full'));
      return new Promise<void>((resolve) => (releaseSecond = resolve));
    });
    await stageBatches(stager, 'e', 2);
    let settled = false;
    const settling = stager.settle().finally(() => (settled = true));
    settling.catch(() => undefined);
    // The second write holds its transaction open once it has reached the heartbeat; under a
    // loaded CI its insert can take longer than any fixed pause, and releasing before then
    // would release nothing (and leave the write open for good).
    await vi.waitFor(() => expect(writes).toBe(2), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    releaseSecond();
    await expect(settling).rejects.toThrow('the disk is full');
    // The second batch committed before settle() answered: nothing is written after it.
    const staged = await stagedIds(generation);
    expect(staged.length).toBeGreaterThan(0);
    expect(staged.every((id) => id.startsWith('e'))).toBe(true);
  });
});
