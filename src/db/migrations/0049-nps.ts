import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * NPS (docs/nps.md): the shop's channels and categories by code, and the reviews apps send
 * with POST /nps/create.
 * - nps_reviews holds one row per customer, channel, category and `dedupe_key` (the order
 *   id for a review of an order, else the day of the shop's time zone): a retried request
 *   or a second review of the same order replaces the first instead of counting twice.
 *   `day` is the shop-zone date of the review, so that the score per day is one index
 *   range and a GROUP BY.
 * - nps_review_sequences gives each shop's reviews their integer ids (one upsert).
 * Channel and category codes are kept as text on the reviews: a deleted channel leaves its
 * reviews and their figures as they were.
 */
export function nps(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('nps_channels')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('nps_channels_pk', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createTable('nps_categories')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('detractor_question', 'text')
        .addColumn('passive_question', 'text')
        .addColumn('promoter_question', 'text')
        .addColumn('detractor_success', 'text')
        .addColumn('passive_success', 'text')
        .addColumn('promoter_success', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('nps_categories_pk', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createTable('nps_review_sequences')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('nps_review_sequences_pk', ['shop_id'])
        .execute();
      await db.schema
        .createTable('nps_reviews')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('rate', 'integer', (c) => c.notNull())
        .addColumn('comment', 'text')
        .addColumn('order_id', 'text')
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('nps_reviews_pk', ['shop_id', 'id'])
        .addUniqueConstraint('nps_reviews_once', ['shop_id', 'profile_id', 'channel', 'category', 'dedupe_key'])
        .execute();
      // The admin list, newest first, and the score per day: both ranges of the shop's days.
      await db.schema.createIndex('nps_reviews_shop_day').on('nps_reviews').columns(['shop_id', 'day', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('nps_reviews').execute();
      await db.schema.dropTable('nps_review_sequences').execute();
      await db.schema.dropTable('nps_categories').execute();
      await db.schema.dropTable('nps_channels').execute();
    },
  };
}
