import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/types.js';

export interface FixtureProduct {
  readonly id: string;
  readonly pictures: readonly string[];
}

/**
 * Puts a served catalog generation in place the way a landed import leaves it: the
 * shop's `catalogs` row points at `generation`, whose products are in catalog_products.
 * (The picture job reads only ids and pictures; the other columns get plain values.)
 */
export async function landCatalogFixture(
  db: Kysely<Database>,
  shopId: string,
  generation: number,
  products: readonly FixtureProduct[],
  now = 0,
): Promise<void> {
  await db
    .insertInto('catalogs')
    .values({
      shop_id: shopId,
      generation,
      last_generation: generation,
      landed_at: now,
      feed_url: null,
      refresh_minutes: 60,
      next_fetch_at: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ generation, last_generation: generation, updated_at: now }))
    .execute();
  if (products.length === 0) return;
  await db
    .insertInto('catalog_products')
    .values(
      products.map((product) => ({
        shop_id: shopId,
        generation,
        id: product.id,
        group_id: null,
        available: 1,
        name: `Product ${product.id}`,
        description: null,
        url: `https://shop.example/p/${product.id}`,
        price: 10_000,
        oldprice: null,
        currency_id: 'RUB',
        category_ids: '["1"]',
        pictures: JSON.stringify(product.pictures),
        vendor: null,
        model: null,
        vendor_code: null,
        barcode: null,
        params: '[]',
        location_ids: '[]',
        deeplink_android: null,
        deeplink_ios: null,
        sales_rate: null,
        ignored: 0,
        widgetable: 1,
      })),
    )
    .execute();
}
