import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed } from '../helpers/feed-builder.js';
import { item, push } from '../modules/tracking/tracking-fixture.js';
import { expectAdminError } from './admin-assertions.js';

/** GET …/recommendation-blocks/{code}/preview: GET /recommend's answer for a product and a customer, with each product's recommender. */
describe.each(TEST_DIALECTS)('admin recommendation block preview on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let profileId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    await importTestFeed(t.app.services, shopId, {
      categories: [{ id: '1', name: 'Shoes' }],
      offers: ['A', 'B', 'C', 'D'].map((id, i) => ({
        id,
        url: `https://shop.example/p/${id}`,
        price: 100 + i,
        categoryIds: ['1'],
        name: `Product ${id}`,
        salesRate: 10 - i,
      })),
    });
    const { did } = await t.app.services.identity.createDevice(shopId);
    await t.app.services.tracking.recordPush(push(shopId, did, 'view', { items: [item('C')] }));
    profileId = (await t.app.services.tracking.listEvents(shopId, did, 1))[0]!.profileId;
    await t.app.services.recommendationBlocks.putBlock(shopId, 'pdp', {
      title: 'Seen and popular',
      limit: 3,
      rules: [{ recommender: 'recently_viewed' }, { recommender: 'popular' }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const preview = (query: string, shop = shopId, code = 'pdp') =>
    t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop}/recommendation-blocks/${code}/preview${query}`, headers: t.adminHeaders });

  it('answers the block’s products for the product and the customer, each with the recommender that put it in', async () => {
    const response = await preview(`?item=A&profile_id=${profileId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      code: 'pdp',
      title: 'Seen and popular',
      items: [
        {
          id: 'C',
          recommender: 'recently_viewed',
          name: 'Product C',
          price_formatted: '102 ₽',
          image_url: null,
          url: 'https://shop.example/p/C',
        },
        { id: 'B', recommender: 'popular', name: 'Product B', price_formatted: '101 ₽', image_url: null, url: 'https://shop.example/p/B' },
        { id: 'D', recommender: 'popular', name: 'Product D', price_formatted: '103 ₽', image_url: null, url: 'https://shop.example/p/D' },
      ],
    });
  });

  it('without a customer, shows what an anonymous visitor gets; with a limit, that many', async () => {
    const response = await preview('?limit=2');
    expect(response.json<{ items: { id: string; recommender: string }[] }>().items).toEqual([
      expect.objectContaining({ id: 'A', recommender: 'popular' }),
      expect.objectContaining({ id: 'B', recommender: 'popular' }),
    ]);
  });

  it('answers 404 for an unknown block, customer or shop, and 422 for a bad parameter', async () => {
    expectAdminError(await preview('', shopId, 'nope'), 404, 'NOT_FOUND');
    expectAdminError(await preview('?profile_id=999999'), 404, 'NOT_FOUND');
    expectAdminError(await preview('', 'abcdef0123456789abcdef01234567'), 404, 'NOT_FOUND');
    expectAdminError(await preview('?limit=0'), 422, 'VALIDATION_FAILED');
  });
});
