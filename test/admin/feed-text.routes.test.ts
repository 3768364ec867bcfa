import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopFixture } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { buildJsonFeed, buildYml, sampleFeed } from '../helpers/feed-builder.js';
import { expectAdminError } from './admin-assertions.js';

/**
 * Text no database can store inside a feed upload (docs/input.md): the feed streams past
 * the admin scope's text rule, so the import decides. A JSON feed can spell a NUL or a
 * lone surrogate inside well-formed JSON: the element holding it is skipped with its
 * reason. XML cannot spell them at all: such a YML feed is not well-formed (422) and the
 * served catalog stays. On both databases: on PostgreSQL a NUL used to fail the import with 500.
 */

type JsonFeed = { categories: Array<Record<string, unknown>>; offers: Array<Record<string, unknown>> };

describe.each(TEST_DIALECTS)('feed text the database cannot store, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });
  const put = (shopId: string, payload: string, contentType: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/feed`,
      headers: { ...t.adminHeaders, 'content-type': contentType },
      payload,
    });

  it('skips a JSON offer or category holding a NUL or a lone surrogate, with its reason, and imports the rest', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const feed = buildJsonFeed(sampleFeed()) as JsonFeed;
    feed.offers[0]!.name = 'Runner\u0000red';
    feed.offers[1]!.params = [{ name: 'Color', value: 'blue\uD800' }];
    feed.categories[3]!.name = 'Bo\u0000oks';
    const response = await put(shopId, JSON.stringify(feed), 'application/json');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      products: feed.offers.length - 2,
      categories: 3,
      skipped: [
        { id: '4', reason: 'category 4: name contains a NUL character (U+0000); skipped' },
        { id: 'sku-1', reason: 'offer 1: name contains a NUL character (U+0000); skipped' },
        { id: 'sku-2', reason: 'offer 2: params[0].value is not valid UTF-8 text; skipped' },
      ],
    });
    const served = await t.app.inject({ method: 'GET', url: `/products/get?shop_id=${shopId}&item_id=sku-3` });
    expect(served.statusCode).toBe(200);
  });

  it('refuses a YML feed holding a NUL or a surrogate reference as not well-formed, keeping the served catalog', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect((await put(shopId, buildYml(sampleFeed()), 'application/xml')).statusCode).toBe(200);
    for (const bad of ['Runner\u0000red', 'Runner&#0;red', 'Runner&#xD800;red']) {
      const xml = buildYml(sampleFeed()).replace('Runner red', bad);
      const message = expectAdminError(await put(shopId, xml, 'application/xml'), 422, 'VALIDATION_FAILED');
      expect(message).toMatch(/^The feed is not well-formed XML/);
    }
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);
  });
});
