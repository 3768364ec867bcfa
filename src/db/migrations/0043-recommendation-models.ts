import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Recommendation models (docs/recommendations.md "Models"), built off the request path by
 * the `recommendations.rebuild` job so that a request reads one row and never the events:
 * - `recommendation_neighbours`: an item's top-N list of a kind (also_bought, also_viewed).
 * - `recommendation_lists`: a shop-wide list of a kind (popular, trending, buying_now).
 * - `recommendation_builds`: the shop's last build and the claim of the running one.
 * - an index of product views by session, partial so that other events do not pay for it:
 *   the build reads each session's views in time order in chunks instead of all at once.
 */
export function recommendationModels(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recommendation_neighbours')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_neighbours_pk', ['shop_id', 'kind', 'item_id'])
        .execute();
      await db.schema
        .createTable('recommendation_lists')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_lists_pk', ['shop_id', 'kind'])
        .execute();
      await db.schema
        .createTable('recommendation_builds')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('built_at', 'bigint')
        .addColumn('build_token', 'text')
        .addColumn('building_since', 'bigint')
        .addColumn('lease_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('last_error_at', 'bigint')
        .addColumn('orders_read', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('sessions_read', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('items_with_neighbours', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', 'bigint')
        .addPrimaryKeyConstraint('recommendation_builds_pk', ['shop_id'])
        .execute();
      await db.schema
        .createIndex('events_shop_view_sid_idx')
        .on('events')
        .columns(['shop_id', 'sid', 'time', 'id'])
        // Literals, as the build's query states them: a planner uses a partial index only for a query whose terms imply its own.
        .where(sql<boolean>`event = 'view' and custom = 0 and sid is not null`)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('events_shop_view_sid_idx').execute();
      await db.schema.dropTable('recommendation_builds').execute();
      await db.schema.dropTable('recommendation_lists').execute();
      await db.schema.dropTable('recommendation_neighbours').execute();
    },
  };
}
