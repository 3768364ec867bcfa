import type { Insertable } from 'kysely';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { CatalogProductsTable } from '../../../src/db/types.js';
import { createServices, type Services } from '../../../src/services.js';
import type { TestDb } from '../../helpers/db.js';

/**
 * Catalog rows written straight with Kysely, so that a search test controls generations
 * exactly (a staged generation beside the served one, an old one not yet deleted) without
 * going through the feed import. The tests that go through a real import use
 * test/helpers/feed-builder.ts.
 */

export interface SearchStack {
  readonly services: Services;
  readonly clock: ManualClock;
}

/** Every service on the test database; only the clock is manual. */
export function searchStack(db: TestDb, clock = new ManualClock()): SearchStack {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  return { services: createServices({ config, db, clock }), clock };
}

export interface ProductSpec {
  readonly id: string;
  readonly name?: string | null;
  readonly vendor?: string | null;
  readonly model?: string | null;
  readonly vendorCode?: string | null;
  readonly barcode?: string | null;
  readonly description?: string | null;
  readonly available?: boolean;
  readonly widgetable?: boolean;
  readonly ignored?: boolean;
  /** Minor units. */
  readonly price?: number;
}

export function productRow(shopId: string, generation: number, spec: ProductSpec): Insertable<CatalogProductsTable> {
  return {
    shop_id: shopId,
    generation,
    id: spec.id,
    group_id: null,
    available: spec.available === false ? 0 : 1,
    name: spec.name === undefined ? `Product ${spec.id}` : spec.name,
    description: spec.description ?? null,
    url: `https://shop.example/p/${spec.id}`,
    price: spec.price ?? 100_00,
    oldprice: null,
    currency_id: 'RUB',
    category_ids: '[]',
    pictures: '[]',
    vendor: spec.vendor ?? null,
    model: spec.model ?? null,
    vendor_code: spec.vendorCode ?? null,
    barcode: spec.barcode ?? null,
    params: '[]',
    location_ids: '[]',
    deeplink_android: null,
    deeplink_ios: null,
    sales_rate: null,
    ignored: spec.ignored ? 1 : 0,
    widgetable: spec.widgetable === false ? 0 : 1,
  };
}

export async function insertProducts(db: TestDb, shopId: string, generation: number, specs: readonly ProductSpec[]): Promise<void> {
  if (specs.length === 0) return;
  await db.db
    .insertInto('catalog_products')
    .values(specs.map((spec) => productRow(shopId, generation, spec)))
    .execute();
}

/** Makes `generation` the one readers see, as a landed import does. */
export async function serveGeneration(db: TestDb, shopId: string, generation: number, now = Date.now()): Promise<void> {
  await db.db
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
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ generation, last_generation: generation, landed_at: now }))
    .execute();
}

/** The offer ids of a result, in order. */
export function ids(products: ReadonlyArray<{ readonly id: string }>): string[] {
  return products.map((p) => p.id);
}
