import { beforeEach, describe, expect, it } from 'vitest';
import { catalogFeed, withOffer } from '../../contract/catalog-fixtures.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { importTestFeed, type FeedSpec } from '../../helpers/feed-builder.js';
import { triggerStack, useTriggerTests } from './trigger-fixture.js';

const BACK = { chainId: 1, trigger: { kind: 'back_in_stock' } } as const;
const DROP = { chainId: 2, trigger: { kind: 'price_drop' } } as const;

/**
 * The back_in_stock and price_drop triggers: product subscriptions the catalog fires when a
 * feed import lands, handed to chains (docs/chains.md, "Triggers"), on both databases.
 * In catalogFeed, sku-3 is out of stock at 350 and sku-2 in stock at 1990.50.
 */
describe.each(TEST_DIALECTS)('back in stock and price drop triggers on %s', (dialect) => {
  const t = useTriggerTests(dialect);

  beforeEach(async () => {
    await importTestFeed(t.stack.services, t.shopId, catalogFeed());
  });

  const land = async (spec: FeedSpec) => {
    const result = await importTestFeed(t.stack.services, t.shopId, spec);
    await t.stack.runner.runDue();
    return result.generation;
  };
  const subscribe = async (kind: 'back_in_stock' | 'price_drop', itemId: string, email: string) => {
    const result = await t.stack.services.productSubscriptions.subscribe({ shopId: t.shopId, kind, itemId, identity: { email } });
    if (!result.ok) throw new Error(result.reason);
    return result.profileId;
  };
  const restocked = (spec: FeedSpec, id: string) => withOffer(spec, id, (offer) => ({ ...offer, available: true }));
  const pendingAlerts = async () => (await t.stack.services.productSubscriptions.listAlerts(t.shopId, { status: 'pending' })).length;

  it('a feed change starts the chains of its kind for each subscriber, once, with the products', async () => {
    t.starter.setChains(t.shopId, [BACK, DROP]);
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    const bob = await subscribe('back_in_stock', 'sku-3', 'bob@example.com');
    const carl = await subscribe('price_drop', 'sku-2', 'carl@example.com');
    const at = t.clock.now();

    const generation = await land(withOffer(restocked(catalogFeed(), 'sku-3'), 'sku-2', (offer) => ({ ...offer, price: '1500' })));
    const sku3 = { id: 'sku-3', name: 'Shoe care book', price: 350, url: 'https://shop.example/p/sku-3' };
    expect(t.starter.calls.map((call) => call.outcome)).toEqual(['started', 'started', 'started']);
    expect(t.starter.started).toEqual(
      expect.arrayContaining([
        { shopId: t.shopId, chainId: 1, profileId: ann, variables: {}, products: [sku3], key: `back_in_stock/${generation}/${ann}`, at },
        { shopId: t.shopId, chainId: 1, profileId: bob, variables: {}, products: [sku3], key: `back_in_stock/${generation}/${bob}`, at },
        {
          shopId: t.shopId,
          chainId: 2,
          profileId: carl,
          variables: {},
          products: [
            {
              id: 'sku-2',
              name: 'Runner blue',
              price: 1500,
              url: 'https://shop.example/p/sku-2?color=blue',
              picture: 'https://img.shop.example/sku-2.jpg',
            },
          ],
          key: `price_drop/${generation}/${carl}`,
          at,
        },
      ]),
    );
    expect(await pendingAlerts()).toBe(0);

    // The job run again (a worker killed before it was marked done), and a restart: nothing more.
    await t.stack.triggers.handProductAlerts({ shopId: t.shopId, generation });
    t.stack = triggerStack(t.db, t.clock, t.starter);
    await t.stack.runner.runDue();
    expect(t.starter.calls).toHaveLength(3);
  });

  it('one run per subscriber and landing carries every product that came back', async () => {
    t.starter.setChains(t.shopId, [BACK]);
    const noGiftCard = withOffer(catalogFeed(), 'sku-4', (offer) => ({ ...offer, available: false }));
    await land(noGiftCard);
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await subscribe('back_in_stock', 'sku-4', 'ann@example.com');

    await land(restocked(restocked(noGiftCard, 'sku-3'), 'sku-4'));
    expect(t.starter.started).toMatchObject([
      { chainId: 1, profileId: ann, products: [{ id: 'sku-3' }, { id: 'sku-4', name: 'Gift card (no price)' }] },
    ]);
    // The gift card has no price in the feed: the product has none.
    expect(t.starter.started[0]?.products?.[1]).not.toHaveProperty('price');
  });

  it('without an active chain the alerts stay pending, and a landing of a shop known to have none enqueues nothing', async () => {
    await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await land(restocked(catalogFeed(), 'sku-3'));
    expect(t.starter.calls).toEqual([]);
    expect(await pendingAlerts()).toBe(1);

    await subscribe('price_drop', 'sku-2', 'bob@example.com');
    await land(withOffer(catalogFeed(), 'sku-2', (offer) => ({ ...offer, price: '10' })));
    expect(await pendingAlerts()).toBe(2);
    const jobs = await t.db.db.selectFrom('jobs').select('payload').where('name', '=', 'chains.product_alerts').execute();
    expect(jobs.filter((job) => job.payload.includes(`"${t.shopId}"`))).toHaveLength(1);
  });

  it("a chain of one kind leaves the other kind's alerts pending", async () => {
    t.starter.setChains(t.shopId, [DROP]);
    await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await subscribe('price_drop', 'sku-2', 'bob@example.com');
    await land(withOffer(restocked(catalogFeed(), 'sku-3'), 'sku-2', (offer) => ({ ...offer, price: '10' })));
    expect(t.starter.started.map((s) => s.chainId)).toEqual([2]);
    expect(await t.stack.services.productSubscriptions.listAlerts(t.shopId, { status: 'pending' })).toMatchObject([
      { kind: 'back_in_stock' },
    ]);
  });
});
