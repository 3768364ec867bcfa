import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProductSubscriptionsService } from '../../../src/modules/product-subscriptions/product-subscriptions.service.js';
import { catalogFeed, withOffer } from '../../contract/catalog-fixtures.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../../helpers/feed-builder.js';

/**
 * Alerts of product subscriptions, recorded when a feed import lands (docs/catalog-read.md
 * "Product subscriptions"), with real imports on both databases. Each test uses a shop of
 * its own: sku-2 starts available at 1990.50, sku-3 unavailable at 350.
 */
describe.each(TEST_DIALECTS)('product subscription alerts on %s', (dialect) => {
  let t: TestApp;
  let subscriptions: ProductSubscriptionsService;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    subscriptions = t.app.services.productSubscriptions;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    shopId = (await createShopFixture(t.app.services)).shopId;
    await importTestFeed(t.app.services, shopId, catalogFeed());
  });

  const land = (spec: FeedSpec) => importTestFeed(t.app.services, shopId, spec);
  const subscribe = async (kind: 'back_in_stock' | 'price_drop', itemId: string, email: string, price?: number) => {
    const result = await subscriptions.subscribe({ shopId, kind, itemId, identity: { email }, ...(price !== undefined && { price }) });
    if (!result.ok) throw new Error(result.reason);
    return result.profileId;
  };
  const priced = (id: string, price: string, extra: object = {}) =>
    withOffer(catalogFeed(), id, (offer) => ({ ...offer, price, ...extra }));

  it('back_in_stock fires when an import makes the product available, once', async () => {
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await land(catalogFeed());
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);

    const result = await land(withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true })));
    expect(await subscriptions.listAlerts(shopId)).toEqual([
      {
        generation: result.generation,
        kind: 'back_in_stock',
        itemId: 'sku-3',
        profileId: ann,
        oldPrice: 35000,
        newPrice: 35000,
        subscribedPrice: null,
        status: 'pending',
        createdAt: t.clock.now(),
      },
    ]);
    expect(await subscriptions.listSubscriptions(shopId, ann)).toEqual([
      expect.objectContaining({ kind: 'back_in_stock', itemId: 'sku-3', status: 'fired', firedAt: t.clock.now() }),
    ]);
    expect(await subscriptions.countActive(shopId, 'sku-3')).toEqual({ back_in_stock: 0, price_drop: 0 });

    // Out of stock and back again: the subscription has fired already.
    await land(catalogFeed());
    await land(withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true })));
    expect(await subscriptions.listAlerts(shopId)).toHaveLength(1);
  });

  it('back_in_stock fires for a product that comes back after being absent from the feed', async () => {
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await land(withOffer(catalogFeed(), 'sku-3', () => undefined));
    await land(withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true, price: '300' })));
    expect(await subscriptions.listAlerts(shopId)).toMatchObject([{ itemId: 'sku-3', profileId: ann, oldPrice: null, newPrice: 30000 }]);
  });

  it('back_in_stock stays quiet while the product stays available', async () => {
    await subscribe('back_in_stock', 'sku-2', 'ann@example.com');
    await land(priced('sku-2', '1000'));
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);
    expect(await subscriptions.countActive(shopId, 'sku-2')).toEqual({ back_in_stock: 1, price_drop: 0 });
  });

  it('counts the active subscriptions of many items together, each its own', async () => {
    await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await subscribe('price_drop', 'sku-2', 'bob@example.com');
    await subscribe('price_drop', 'sku-2', 'carl@example.com', 100_000);
    const counts = await subscriptions.countActiveOf(shopId, ['sku-2', 'sku-3', 'sku-1', 'sku-2']);
    expect(Object.fromEntries(counts)).toEqual({
      'sku-1': { back_in_stock: 0, price_drop: 0 },
      'sku-2': { back_in_stock: 0, price_drop: 2 },
      'sku-3': { back_in_stock: 1, price_drop: 0 },
    });
  });

  it('price_drop fires when an import lowers the price below the subscribed one', async () => {
    const bob = await subscribe('price_drop', 'sku-2', 'bob@example.com');
    const carl = await subscribe('price_drop', 'sku-2', 'carl@example.com', 100_000);
    expect(await subscriptions.countActive(shopId, 'sku-2')).toEqual({ back_in_stock: 0, price_drop: 2 });

    const first = await land(priced('sku-2', '1500'));
    expect(await subscriptions.listAlerts(shopId)).toEqual([
      expect.objectContaining({
        generation: first.generation,
        kind: 'price_drop',
        profileId: bob,
        oldPrice: 199050,
        newPrice: 150000,
        subscribedPrice: 199050,
      }),
    ]);

    // Carl wants 1000: 1200 is not enough, 900 is.
    await land(priced('sku-2', '1200'));
    expect(await subscriptions.listAlerts(shopId)).toHaveLength(1);
    const third = await land(priced('sku-2', '900'));
    expect((await subscriptions.listAlerts(shopId)).slice(1)).toEqual([
      expect.objectContaining({
        generation: third.generation,
        profileId: carl,
        oldPrice: 120000,
        newPrice: 90000,
        subscribedPrice: 100000,
      }),
    ]);
    expect(await subscriptions.countActive(shopId, 'sku-2')).toEqual({ back_in_stock: 0, price_drop: 0 });
  });

  it('price_drop ignores a price that rises, stays, or drops while the product is unavailable', async () => {
    await subscribe('price_drop', 'sku-2', 'bob@example.com', 150_000);
    await land(priced('sku-2', '2500'));
    await land(priced('sku-2', '2500'));
    await land(priced('sku-2', '1000', { available: false }));
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);
    // Back in stock at the same low price: not cheaper than before, so still quiet.
    await land(priced('sku-2', '1000'));
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);
    await land(priced('sku-2', '999'));
    expect(await subscriptions.listAlerts(shopId)).toMatchObject([{ newPrice: 99900, oldPrice: 100000 }]);
  });

  it('a cancelled subscription does not fire; subscribing again re-arms a fired one', async () => {
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    await subscriptions.unsubscribe({ shopId, kind: 'back_in_stock', itemIds: ['sku-3'], identity: { email: 'ann@example.com' } });
    await land(withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true })));
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);

    await land(catalogFeed());
    await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    expect(await subscriptions.listSubscriptions(shopId, ann)).toMatchObject([{ status: 'active', firedAt: null }]);
    await land(withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true })));
    expect(await subscriptions.listAlerts(shopId)).toMatchObject([{ profileId: ann, kind: 'back_in_stock' }]);
  });

  it('another shop’s import leaves this shop’s subscriptions alone', async () => {
    await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    const other = (await createShopFixture(t.app.services)).shopId;
    await importTestFeed(t.app.services, other, catalogFeed());
    await importTestFeed(
      t.app.services,
      other,
      withOffer(catalogFeed(), 'sku-3', (offer) => ({ ...offer, available: true })),
    );
    expect(await subscriptions.listAlerts(shopId)).toEqual([]);
    expect(await subscriptions.listAlerts(other)).toEqual([]);
    expect(await subscriptions.countActive(shopId, 'sku-3')).toEqual({ back_in_stock: 1, price_drop: 0 });
  });

  it('refuses an unknown product, and a price drop without any price', async () => {
    await expect(
      subscriptions.subscribe({ shopId, kind: 'back_in_stock', itemId: 'nope', identity: { email: 'a@example.com' } }),
    ).resolves.toEqual({
      ok: false,
      reason: 'unknown_product',
    });
    await expect(
      subscriptions.subscribe({ shopId, kind: 'price_drop', itemId: 'sku-4', identity: { email: 'a@example.com' } }),
    ).resolves.toEqual({
      ok: false,
      reason: 'price_required',
    });
  });

  it('moves subscriptions and alerts to the survivor when profiles merge', async () => {
    const identity = t.app.services.identity;
    const ann = await subscribe('back_in_stock', 'sku-3', 'ann@example.com');
    t.clock.advance(1000);
    // An anonymous device (a younger profile) subscribes to the same product and to another one.
    const device = await identity.createDevice(shopId);
    const anonymous = await subscriptions.subscribe({ shopId, kind: 'back_in_stock', itemId: 'sku-3', identity: { did: device.did } });
    await subscriptions.subscribe({ shopId, kind: 'price_drop', itemId: 'sku-2', identity: { did: device.did }, price: 150_000 });
    expect(anonymous).toMatchObject({ ok: true, profileId: device.profileId });
    await land(priced('sku-2', '1000'));
    expect(await subscriptions.listAlerts(shopId)).toMatchObject([{ profileId: device.profileId }]);

    // The device turns out to be Ann's: the younger anonymous profile merges into hers.
    const resolved = await identity.resolveProfile(shopId, { did: device.did, email: 'ann@example.com' });
    expect(resolved.profileId).toBe(ann);
    expect(await subscriptions.listSubscriptions(shopId, device.profileId)).toEqual([]);
    expect((await subscriptions.listSubscriptions(shopId, ann)).map((s) => [s.kind, s.itemId, s.status])).toEqual([
      ['back_in_stock', 'sku-3', 'active'],
      ['price_drop', 'sku-2', 'fired'],
    ]);
    expect(await subscriptions.listAlerts(shopId)).toMatchObject([{ profileId: ann, itemId: 'sku-2' }]);
    expect(await subscriptions.countActive(shopId, 'sku-3')).toEqual({ back_in_stock: 1, price_drop: 0 });
  });
});
