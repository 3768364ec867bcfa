import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushEventInput } from '../../../src/modules/tracking/tracking.types.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../../helpers/feed-builder.js';

const FEED: FeedSpec = {
  categories: [{ id: '1', name: 'All' }],
  offers: [
    { id: 'a', url: 'https://shop.example/a', price: 10, categoryIds: ['1'], name: 'A' },
    { id: 'b', url: 'https://shop.example/b', price: 20, categoryIds: ['1'], name: 'B' },
  ],
};

describe.each(TEST_DIALECTS)('shopper view on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  async function setup() {
    const fixture = await createShopFixture(t.app.services);
    await importTestFeed(t.app.services, fixture.shopId, FEED);
    const device = async () => (await t.app.services.identity.createDevice(fixture.shopId)).did;
    const push = (input: Omit<PushEventInput, 'shopId' | 'attribution'>) =>
      t.app.services.tracking.recordPush({ shopId: fixture.shopId, attribution: {}, ...input });
    return { shop: fixture.shop, device, push };
  }

  it('follows a device to the customer it was linked to: cart and orders of the merged profile', async () => {
    const { shop, device, push } = await setup();
    const phone = await device();
    const tablet = await device();
    await push({
      did: phone,
      event: 'purchase',
      items: [{ id: 'a', amount: 1, price: 10 }],
      identifiers: { email: 'ann@example.org' },
      purchase: { orderId: 'P-1' },
    });
    await push({ did: tablet, event: 'cart', items: [{ id: 'b', amount: 2 }] });
    // The tablet's customer tells her email: the tablet now belongs to Ann.
    await push({ did: tablet, event: 'view', items: [{ id: 'a', amount: 1 }], identifiers: { email: 'ann@example.org' } });

    const view = t.app.services.shopperView;
    expect((await view.ordersOf(shop, { did: tablet }, undefined)).orders.map((o) => o.orderId)).toEqual(['P-1']);
    expect((await view.cartOf(shop, phone)).map((line) => [line.item.id, line.product?.name])).toEqual([['b', 'B']]);
    expect((await view.lastOrderProducts(shop, { did: tablet })).map((p) => p.id)).toEqual(['a']);
  });

  it('reads the products of the catalog served now: a product that left the feed has no data, one that came back has', async () => {
    const { shop, device, push } = await setup();
    const did = await device();
    await push({
      did,
      event: 'cart',
      items: [
        { id: 'a', amount: 1 },
        { id: 'b', amount: 1 },
      ],
    });
    await importTestFeed(t.app.services, shop.shopId, { ...FEED, offers: FEED.offers!.filter((o) => o.id !== 'b') });
    const view = t.app.services.shopperView;
    expect((await view.cartOf(shop, did)).map((line) => [line.item.id, line.product?.id ?? null])).toEqual([
      ['a', 'a'],
      ['b', null],
    ]);
    await importTestFeed(t.app.services, shop.shopId, FEED);
    expect((await view.cartOf(shop, did)).map((line) => line.product?.id ?? null)).toEqual(['a', 'b']);
  });

  it('answers the newest orders first and at most 100 of them', async () => {
    const { shop, device, push } = await setup();
    const did = await device();
    for (let i = 1; i <= 102; i += 1) {
      t.clock.advance(1000);
      await push({ did, event: 'purchase', items: [{ id: 'a', amount: 1, price: 10 }], purchase: { orderId: `O-${i}` } });
    }
    const { orders } = await t.app.services.shopperView.ordersOf(shop, { did }, undefined);
    expect(orders).toHaveLength(100);
    expect([orders[0]!.orderId, orders[99]!.orderId]).toEqual(['O-102', 'O-3']);
  });
});
