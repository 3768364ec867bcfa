import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The catalog (src/modules/catalog): what the shop's product feed brings.
 *
 * Staging and swap by generation: an import writes its categories, locations and
 * products under a new generation number, invisible to readers, and lands by one UPDATE
 * of `catalogs.generation` in one transaction; then the rows of older generations are
 * deleted. A failed or malformed import leaves the served generation as it was, and
 * readers always see one whole feed, never a mix. Every catalog table's key leads with
 * (shop_id, generation).
 *
 * Category ids: the contract's category tree has an internal integer `id` beside the
 * feed's `external_id`. `catalog_category_ids` gives each external id of a shop one
 * internal id for good, so the ids stay stable from one import to the next.
 */
export function catalog(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('catalogs')
        .addColumn('shop_id', 'text', (c) => c.notNull().primaryKey().references('shops.shop_id').onDelete('cascade'))
        // The generation readers see; 0 while no import has landed.
        .addColumn('generation', 'bigint', (c) => c.notNull())
        // The last generation handed to an import (landed, running or failed).
        .addColumn('last_generation', 'bigint', (c) => c.notNull())
        .addColumn('landed_at', 'bigint')
        // Re-fetched on a schedule when set (a job); null: the feed is pushed through the admin API.
        .addColumn('feed_url', 'text')
        .addColumn('refresh_minutes', 'integer', (c) => c.notNull())
        .addColumn('next_fetch_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('feed_imports')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        // The generation the import writes: its id.
        .addColumn('generation', 'bigint', (c) => c.notNull())
        // 'admin', 'cli' or 'url'.
        .addColumn('source', 'text', (c) => c.notNull())
        // 'running', 'done' or 'failed'.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('products', 'integer', (c) => c.notNull())
        .addColumn('categories', 'integer', (c) => c.notNull())
        .addColumn('locations', 'integer', (c) => c.notNull())
        .addColumn('skipped_count', 'integer', (c) => c.notNull())
        // JSON array of {id, reason}: the first skipped offers, bounded.
        .addColumn('skipped', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addPrimaryKeyConstraint('feed_imports_pk', ['shop_id', 'generation'])
        .execute();

      await db.schema
        .createTable('catalog_category_ids')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_category_ids_pk', ['shop_id', 'external_id'])
        .execute();
      await db.schema
        .createIndex('catalog_category_ids_shop_id_uq')
        .on('catalog_category_ids')
        .columns(['shop_id', 'id'])
        .unique()
        .execute();

      await db.schema
        .createTable('catalog_categories')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('generation', 'bigint', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('parent_external_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        // 1 for a root (domain/categories.ts decides and breaks loops).
        .addColumn('level', 'integer', (c) => c.notNull())
        // Products whose categoryId is this category (not its subtree).
        .addColumn('product_count', 'integer', (c) => c.notNull())
        // …of which oldprice > price.
        .addColumn('discount_product_count', 'integer', (c) => c.notNull())
        // JSON array of the location ids of those products.
        .addColumn('location_ids', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_categories_pk', ['shop_id', 'generation', 'external_id'])
        .execute();

      await db.schema
        .createTable('catalog_locations')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('generation', 'bigint', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('type', 'text')
        .addColumn('parent_id', 'text')
        .addPrimaryKeyConstraint('catalog_locations_pk', ['shop_id', 'generation', 'id'])
        .execute();

      await db.schema
        .createTable('catalog_products')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('generation', 'bigint', (c) => c.notNull())
        // The offer id of the feed: the contract's uniqid / item_id.
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('group_id', 'text')
        .addColumn('available', 'integer', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('description', 'text')
        .addColumn('url', 'text')
        // Minor units (kopecks); null when the offer has no usable price.
        .addColumn('price', 'bigint')
        .addColumn('oldprice', 'bigint')
        .addColumn('currency_id', 'text')
        // JSON array of the feed's category ids (external).
        .addColumn('category_ids', 'text', (c) => c.notNull())
        // JSON array of picture links, the first being the product's picture.
        .addColumn('pictures', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('model', 'text')
        .addColumn('vendor_code', 'text')
        .addColumn('barcode', 'text')
        // JSON array of {key, values[]}.
        .addColumn('params', 'text', (c) => c.notNull())
        // JSON array of location ids where the offer is sold; [] = everywhere.
        .addColumn('location_ids', 'text', (c) => c.notNull())
        .addColumn('deeplink_android', 'text')
        .addColumn('deeplink_ios', 'text')
        .addColumn('sales_rate', 'integer')
        .addColumn('ignored', 'integer', (c) => c.notNull())
        // Price, category, name and link all present (interface.md, endpoint 14).
        .addColumn('widgetable', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_products_pk', ['shop_id', 'generation', 'id'])
        .execute();
      await db.schema
        .createIndex('catalog_products_widgetable_idx')
        .on('catalog_products')
        .columns(['shop_id', 'generation', 'widgetable'])
        .execute();
      await db.schema
        .createIndex('catalog_products_group_idx')
        .on('catalog_products')
        .columns(['shop_id', 'generation', 'group_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'catalog_products',
        'catalog_locations',
        'catalog_categories',
        'catalog_category_ids',
        'feed_imports',
        'catalogs',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
