import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Product pictures (src/modules/images): one row per shop and picture link, keyed by the
 * SHA-256 of the link, so a link is downloaded once however many products and imports
 * show it, and a changed link is a new picture. The thumbnails themselves are files
 * under the data dir; a row says `done` only after all of them were written.
 */
export function productImages(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('product_images')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        // Lower-case hex SHA-256 of `link`: the picture's name on disk and in its URL.
        .addColumn('link_hash', 'text', (c) => c.notNull())
        .addColumn('link', 'text', (c) => c.notNull())
        // 'pending', 'done' or 'failed'.
        .addColumn('status', 'text', (c) => c.notNull())
        // One sentence (image_downloading_error), for 'failed'.
        .addColumn('error', 'text')
        // A failed picture is tried again by the first job after this instant.
        .addColumn('retry_at', 'bigint')
        // The last time a landed catalog showed this picture; long unseen pictures are pruned.
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_images_pk', ['shop_id', 'link_hash'])
        .execute();
      // The download job pages through a shop's pending pictures by hash.
      await db.schema.createIndex('product_images_status_idx').on('product_images').columns(['shop_id', 'status', 'link_hash']).execute();
      await db.schema.createIndex('product_images_seen_idx').on('product_images').columns(['shop_id', 'seen_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('product_images').execute();
    },
  };
}
