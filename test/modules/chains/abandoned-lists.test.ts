import { beforeEach, describe, expect, it } from 'vitest';
import type { TrackedItem } from '../../../src/modules/tracking/domain/items.js';
import type { PushEventInput } from '../../../src/modules/tracking/tracking.types.js';
import { catalogFeed } from '../../contract/catalog-fixtures.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { importTestFeed } from '../../helpers/feed-builder.js';
import { abandonedCart, abandonedWish, triggerStack, useTriggerTests } from './trigger-fixture.js';

const HOUR = 3_600_000;

/**
 * The abandoned_cart and abandoned_wish triggers through real tracking events, jobs and
 * catalog, on both databases, over a recording engine (docs/chains.md, "Triggers").
 */
describe.each(TEST_DIALECTS)('abandoned cart and wish list triggers on %s', (dialect) => {
  const t = useTriggerTests(dialect);
  let did: string;
  let profileId: number;

  beforeEach(async () => {
    await importTestFeed(t.stack.services, t.shopId, catalogFeed());
    did = (await t.stack.services.tracking.initSession({ shopId: t.shopId })).did;
    profileId = (await t.stack.services.identity.findDevice(t.shopId, did))!.profileId;
  });

  const send = async (event: PushEventInput['event'], items: TrackedItem[], rest: Partial<PushEventInput> = {}) => {
    await t.stack.services.tracking.recordPush({ shopId: t.shopId, did, event, items, attribution: {}, ...rest });
    await t.stack.runner.runDue();
  };
  const after = async (ms: number) => {
    t.clock.advance(ms);
    await t.stack.runner.runDue();
  };
  const sku1 = { id: 'sku-1', amount: 1, price: 1990.5 };

  it('starts the chain once when the cart is left unchanged for after_seconds, with its products', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 3600)]);
    const changedAt = t.clock.now();
    await send('cart', [sku1, { id: 'gone-9', amount: 2, price: 10 }]);
    await after(HOUR - 1);
    expect(t.starter.calls).toEqual([]);

    await after(1);
    expect(t.starter.calls).toEqual([
      {
        outcome: 'started',
        start: {
          shopId: t.shopId,
          chainId: 1,
          profileId,
          variables: {},
          products: [
            {
              id: 'sku-1',
              name: 'Runner red',
              price: 1990.5,
              url: 'https://shop.example/p/sku-1?color=red#reviews',
              picture: 'https://img.shop.example/sku-1.jpg',
            },
            { id: 'gone-9', name: '', price: 10 },
          ],
          key: expect.stringMatching(/^abandoned_cart\//) as string,
          at: changedAt + HOUR,
        },
      },
    ]);

    await after(30 * 24 * HOUR);
    expect(t.starter.calls).toHaveLength(1);
  });

  it('re-arms on a change: the cart fires after_seconds after its last change, then again after a later change', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 3600)]);
    await send('cart', [sku1]);
    await after(HOUR / 2);
    await send('cart', [{ id: 'sku-2', amount: 1 }]);
    await after(HOUR / 2);
    expect(t.starter.calls).toEqual([]);

    await after(HOUR / 2);
    expect(t.starter.started.map((s) => s.products?.map((p) => p.id))).toEqual([['sku-1', 'sku-2']]);

    await send('remove_from_cart', [sku1]);
    await after(HOUR);
    expect(t.starter.started.map((s) => s.products?.map((p) => p.id))).toEqual([['sku-1', 'sku-2'], ['sku-2']]);
    expect(new Set(t.starter.started.map((s) => s.key)).size).toBe(2);
  });

  it('a purchase cancels the pending firing and ends the abandoned-cart runs of the profile', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 600), abandonedCart(2, 3600)]);
    await send('cart', [sku1, { id: 'sku-2', amount: 1 }]);
    await after(600_000);
    expect(t.starter.waitingRuns.map((r) => r.chainId)).toEqual([1]);

    // Buys one of the two: the rest stays in the cart, and nothing more fires for this cart.
    await send('purchase', [sku1], { purchase: { orderId: 'o-1' } });
    expect(t.starter.ends).toEqual([{ shopId: t.shopId, profileId, kind: 'abandoned_cart', at: t.clock.now(), ended: 1 }]);
    expect(t.starter.waitingRuns).toEqual([]);
    await after(10 * HOUR);
    expect(t.starter.calls).toHaveLength(1);

    // A later change of the cart arms it again.
    await send('cart', [{ id: 'sku-5', amount: 1 }]);
    await after(HOUR);
    expect(t.starter.started.map((s) => s.chainId)).toEqual([1, 1, 2]);
  });

  it('starts each chain at its own delay, for the same cart state', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(2, 86_400), abandonedCart(1, 60)]);
    await send('cart', [sku1]);
    await after(60_000);
    expect(t.starter.started.map((s) => s.chainId)).toEqual([1]);
    await after(24 * HOUR);
    expect(t.starter.started.map((s) => s.chainId)).toEqual([1, 2]);
    expect(t.starter.started[0]?.key).toBe(t.starter.started[1]?.key);
  });

  it('a wish list starts abandoned_wish chains and not abandoned_cart ones', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 60), abandonedWish(2, 60)]);
    await send('wish', [{ id: 'sku-6', amount: 1 }]);
    await after(60_000);
    expect(t.starter.started).toMatchObject([{ chainId: 2, products: [{ id: 'sku-6', name: 'Race car', price: 12345.67 }] }]);
  });

  it('a cart emptied before the delay fires nothing', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 60)]);
    await send('cart', [sku1]);
    await send('remove_from_cart', [sku1]);
    await after(HOUR);
    expect(t.starter.calls).toEqual([]);
  });

  it('a shop without such chains gets no job for its list events once the detector knows it', async () => {
    await send('cart', [sku1]);
    await send('cart', [{ id: 'sku-2', amount: 1 }]);
    await send('wish', [sku1]);
    const jobs = await t.db.db.selectFrom('jobs').select(['name', 'payload']).where('name', 'like', 'chains.%').execute();
    const delivered = await t.db.db.selectFrom('jobs').select('payload').where('name', '=', 'tracking.deliver').execute();
    const ours = delivered.filter((job) => job.payload.includes(`"${t.shopId}"`) && job.payload.includes('chains.abandoned-lists'));
    // The first cart and the first wish event asked; the second cart event was not handed over.
    expect(ours).toHaveLength(2);
    expect(jobs.filter((job) => job.payload.includes(`"${t.shopId}"`))).toEqual([]);
  });

  it('100 list events handed over at once and out of order arm the list by the newest one only: one run', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 60)]);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.stack.services.tracking.recordPush({
          shopId: t.shopId,
          did,
          event: 'cart',
          items: [{ id: `sku-${(i % 7) + 1}`, amount: 1 }],
          attribution: {},
        }),
      ),
    );
    const deliveries = await t.db.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'tracking.deliver')
      .where('status', '=', 'queued')
      .execute();
    const ours = deliveries
      .map((job) => JSON.parse(job.payload) as { shopId: string; eventId: number; subscriber: string })
      .filter((job) => job.shopId === t.shopId && job.subscriber === 'chains.abandoned-lists');
    expect(ours).toHaveLength(100);
    await Promise.all(ours.reverse().map((job) => t.stack.services.tracking.deliver(job)));
    await after(60_000);
    const newest = Math.max(...ours.map((job) => job.eventId));
    expect(t.starter.calls.map((call) => [call.outcome, call.start.key])).toEqual([['started', `abandoned_cart/${newest}`]]);
  });

  it('a cart whose profile merges into another fires for the surviving profile, once', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 3600)]);
    // Ann fills a cart on one device, then logs in on an older one: the older profile survives (identity's rule).
    const now = t.clock.now();
    t.clock.set(now - 60_000);
    const late = (await t.stack.services.tracking.initSession({ shopId: t.shopId })).did;
    t.clock.set(now);
    await send('cart', [sku1], { identifiers: { email: 'ann@example.com' } });
    await after(HOUR / 2);
    await t.stack.services.tracking.recordPush({
      shopId: t.shopId,
      did: late,
      event: 'view',
      items: [sku1],
      attribution: {},
      identifiers: { email: 'ann@example.com' },
    });
    await t.stack.runner.runDue();
    const survivor = (await t.stack.services.identity.findDevice(t.shopId, late))!.profileId;
    expect((await t.stack.services.identity.findDevice(t.shopId, did))!.profileId).toBe(survivor);
    expect(survivor).not.toBe(profileId);

    await after(HOUR / 2);
    expect(t.starter.started).toMatchObject([{ chainId: 1, profileId: survivor, products: [{ id: 'sku-1' }] }]);
    await after(HOUR);
    expect(t.starter.calls).toHaveLength(1);
  });

  it('a restart neither loses a pending firing nor fires twice; a check run again starts nothing new', async () => {
    t.starter.setChains(t.shopId, [abandonedCart(1, 3600)]);
    await send('cart', [sku1]);
    t.stack = triggerStack(t.db, t.clock, t.starter);
    await after(HOUR);
    expect(t.starter.calls).toHaveLength(1);
    t.stack = triggerStack(t.db, t.clock, t.starter);
    await after(HOUR);
    expect(t.starter.calls).toHaveLength(1);

    // A worker killed after the start and before the job was marked done runs the check again.
    const job = await t.db.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'chains.abandoned_check')
      .where('payload', 'like', `%${t.shopId}%`)
      .executeTakeFirstOrThrow();
    await t.stack.triggers.checkAbandoned(JSON.parse(job.payload));
    expect(t.starter.calls.map((call) => call.outcome)).toEqual(['started', 'duplicate']);
  });
});
