import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Each recommendation block's figures (docs/recommendations.md "Figures"), kept as events
 * arrive in the tracking batch's transaction, so that a block's stats never scan events:
 * - recommendation_block_days (shop_id, code, day): impressions, clicks, views, carts,
 *   orders and revenue (minor units) per day of the shop's time zone;
 * - recommendation_block_touches (shop_id, profile_id, item_id): the last block whose
 *   code a view or cart of that item carried, and when, so that a purchase of the item
 *   within the attribution window counts for the block.
 * Events stored before this migration are not counted.
 */
export function recommendationFigures(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recommendation_block_days')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('impressions', 'bigint', (c) => c.notNull())
        .addColumn('clicks', 'bigint', (c) => c.notNull())
        .addColumn('views', 'bigint', (c) => c.notNull())
        .addColumn('carts', 'bigint', (c) => c.notNull())
        .addColumn('orders', 'bigint', (c) => c.notNull())
        .addColumn('revenue', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_block_days_pk', ['shop_id', 'code', 'day'])
        .execute();
      await db.schema
        .createTable('recommendation_block_touches')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('touched_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_block_touches_pk', ['shop_id', 'profile_id', 'item_id'])
        .execute();
      // A deleted block's touches are found by its code.
      await db.schema
        .createIndex('recommendation_block_touches_code')
        .on('recommendation_block_touches')
        .columns(['shop_id', 'code'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('recommendation_block_touches').execute();
      await db.schema.dropTable('recommendation_block_days').execute();
    },
  };
}
