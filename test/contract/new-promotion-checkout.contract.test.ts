import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';

/**
 * Issue 33, part 6: the scenario an outside probe ran, repeated. A new shop loads a feed,
 * estimates a cart, an admin creates an automatic 10 % promotion on a product or on its
 * category, active from this very millisecond, and the same cart is estimated again at
 * once. Two apps on one database stand for two Patron processes: the admin calls go to
 * one, the estimates alternate between both, and every estimate after the create must
 * carry the discount (docs/promotions.md "The checkout's loader": a change is seen at
 * once, by every process). The clock stands still, so `starts_at` is exactly the
 * estimate's instant (inclusive).
 */

const ROUNDS = 12;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(TEST_DIALECTS)('a promotion created through the admin API on %s', (dialect) => {
  let t: TestApp;
  let other: PatronApp;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const config = loadConfig({ PATRON_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent', PATRON_RATE_LIMIT: 'off' });
    other = await buildApp({ config, db: t.db, clock: t.clock, logger: false });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  async function adminCall(method: 'POST' | 'PUT', url: string, payload: unknown): Promise<Json> {
    const response = await t.app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<Json>();
  }

  async function savedByOffers(app: PatronApp, shop: Json): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/loyalty/checkout/estimate',
      payload: {
        shop_id: shop.shop_id,
        shop_secret: shop.shop_secret,
        cart_items: [
          { product_id: 'boots', price: 200, quantity: 1 },
          { product_id: 'socks', price: 50, quantity: 2 },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Json>().payload.saved_by_offers as number;
  }

  it(`applies the new promotion to the very next estimate in every process, ${ROUNDS} times over`, async () => {
    const missed: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const shop = await adminCall('POST', '/shops', { name: `Probe ${round}` });
      await adminCall('PUT', `/shops/${shop.shop_id}/feed`, {
        categories: [
          { id: 'shoes', name: 'Shoes' },
          { id: 'other', name: 'Other' },
        ],
        offers: [
          { id: 'boots', name: 'Boots', price: 200, url: 'https://shop.example/boots', category_id: 'shoes' },
          { id: 'socks', name: 'Socks', price: 50, url: 'https://shop.example/socks', category_id: 'other' },
        ],
      });
      const [first, second] = round % 2 === 0 ? [t.app, other] : [other, t.app];
      // Both processes have read the shop's promotions (none yet) just before the admin writes.
      expect([await savedByOffers(first, shop), await savedByOffers(second, shop)]).toEqual([0, 0]);
      const target = round % 4 < 2 ? { product_ids: ['boots'] } : { category_ids: ['shoes'] };
      await adminCall('POST', `/shops/${shop.shop_id}/promotions`, {
        name: '10 % on boots',
        status: 'active',
        starts_at: new Date(t.clock.now()).toISOString(),
        discount: { type: 'percent', value: 10 },
        ...target,
      });
      const seen = [await savedByOffers(first, shop), await savedByOffers(second, shop)];
      if (seen.some((saved) => saved !== 20)) missed.push(`round ${round} (${Object.keys(target)[0]}): saved ${seen.join(' and ')}`);
    }
    expect(missed).toEqual([]);
  });
});
