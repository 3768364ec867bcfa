import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The locations where each category's discounted products are sold (JSON array of
 * location ids), written by the import, so that GET /products/categories with both
 * only_discount and locations lists a category only when one product is discounted and
 * sold in one of the locations. Null on rows staged before this column existed (the
 * read then derives it from the generation's products).
 */
export function categoryDiscountLocations(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('catalog_categories').addColumn('discount_location_ids', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('catalog_categories').dropColumn('discount_location_ids').execute();
    },
  };
}
