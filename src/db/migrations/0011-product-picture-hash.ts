import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The SHA-256 of each catalog product's first picture link (the `product_images` key,
 * modules/images/domain/links.ts), written by the import, so that GET /products/get reads
 * a product and its thumbnail state in one statement. Null without a picture, and on
 * rows staged before this column existed (the read then looks the picture up apart).
 */
export function productPictureHash(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('catalog_products').addColumn('picture_hash', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('catalog_products').dropColumn('picture_hash').execute();
    },
  };
}
