import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The admin UI's lists (docs/admin-lists.md): each first page is a range of one of these
 * indexes, read in its order and cut by LIMIT, whatever the shop's size. Keyset paging
 * continues from the last row's key, never by OFFSET.
 *
 * - profiles (shop_id, created_at, id) of live profiles: the customers list, newest first.
 *   Partial, so that the merged tombstones take no room and are never stepped over.
 * - catalog_products (shop_id, generation, available, id): the product browser filtered by
 *   availability, by offer id.
 * - catalog_products (shop_id, generation, widgetable, id): the hidden products by offer id;
 *   it replaces (shop_id, generation, widgetable), whose every use it serves.
 * - catalog_categories (shop_id, generation, parent_external_id, id): a category's children
 *   (the category tree, opened a level at a time), and whether a category has any.
 *
 * A customer's events and orders need none: (shop_id, profile_id, time) and (shop_id,
 * profile_id, created_at) exist (0004), and the id that breaks ties is sorted within one
 * timestamp only.
 */
export function adminLists(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('profiles_shop_created_live_idx')
        .on('profiles')
        .columns(['shop_id', 'created_at', 'id'])
        .where(sql.ref('merged_into'), 'is', null)
        .execute();
      await db.schema
        .createIndex('catalog_products_available_idx')
        .on('catalog_products')
        .columns(['shop_id', 'generation', 'available', 'id'])
        .execute();
      await db.schema
        .createIndex('catalog_products_widgetable_id_idx')
        .on('catalog_products')
        .columns(['shop_id', 'generation', 'widgetable', 'id'])
        .execute();
      await db.schema.dropIndex('catalog_products_widgetable_idx').execute();
      await db.schema
        .createIndex('catalog_categories_parent_idx')
        .on('catalog_categories')
        .columns(['shop_id', 'generation', 'parent_external_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('catalog_categories_parent_idx').execute();
      await db.schema
        .createIndex('catalog_products_widgetable_idx')
        .on('catalog_products')
        .columns(['shop_id', 'generation', 'widgetable'])
        .execute();
      await db.schema.dropIndex('catalog_products_widgetable_id_idx').execute();
      await db.schema.dropIndex('catalog_products_available_idx').execute();
      await db.schema.dropIndex('profiles_shop_created_live_idx').execute();
    },
  };
}
