import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The probability-to-purchase model (docs/recommendations.md "Purchase prediction"),
 * trained by the `recommendations.rebuild` job beside the neighbour lists:
 * - `recommendation_predictors`: one row per shop, the model's coefficients (or none, with
 *   too little data) with the base rate, training size and held-out AUC;
 * - an index of cart events by time, partial so that other events do not pay for it: the
 *   build reads the carts of the training window (recent activity is views and carts).
 */
export function recommendationPredictor(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recommendation_predictors')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('model', 'text')
        .addColumn('base_rate', 'double precision', (c) => c.notNull())
        .addColumn('training_size', 'bigint', (c) => c.notNull())
        .addColumn('positives', 'bigint', (c) => c.notNull())
        .addColumn('auc', 'double precision')
        .addColumn('built_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('recommendation_predictors_pk', ['shop_id'])
        .execute();
      await db.schema
        .createIndex('events_shop_cart_time_idx')
        .on('events')
        .columns(['shop_id', 'time', 'id'])
        // Literals, as the build's query states them: a planner uses a partial index only for a query whose terms imply its own.
        .where(sql<boolean>`event = 'cart' and custom = 0`)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('events_shop_cart_time_idx').execute();
      await db.schema.dropTable('recommendation_predictors').execute();
    },
  };
}
