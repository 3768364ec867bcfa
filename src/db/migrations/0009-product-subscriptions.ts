import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Product subscriptions (src/modules/product-subscriptions): a customer asks to hear when
 * a product is back in stock or cheaper (interface.md "Product counters", `triggers`).
 *
 * One row per (kind, item, profile): subscribing again updates the row. A subscription
 * fires once: the catalog landing that makes the product available (or cheaper than the
 * subscribed price) writes one `product_alerts` row per matching subscription and marks
 * the subscription `fired`, in the swap transaction itself. Alerts wait, `pending`, for
 * messaging to turn them into messages. An alert's key holds the generation that fired
 * it, so a landing writes each alert once whatever retries happen.
 *
 * No foreign keys to profiles: profiles are never deleted (merges leave tombstones) and
 * the identity merge participant moves these rows.
 */
export function productSubscriptions(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('product_subscriptions')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        // 'back_in_stock' or 'price_drop'.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        // price_drop: minor units; the alert fires below this price. Null for back_in_stock.
        .addColumn('price', 'bigint')
        // 'active', 'fired' or 'cancelled'.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('fired_at', 'bigint')
        .addPrimaryKeyConstraint('product_subscriptions_pk', ['shop_id', 'kind', 'item_id', 'profile_id'])
        .execute();
      // The landing's scan of a shop's active subscriptions.
      await db.schema
        .createIndex('product_subscriptions_status_idx')
        .on('product_subscriptions')
        .columns(['shop_id', 'status', 'kind'])
        .execute();
      // Unsubscribing everything of a profile, and merges.
      await db.schema
        .createIndex('product_subscriptions_profile_idx')
        .on('product_subscriptions')
        .columns(['shop_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('product_alerts')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        // The catalog generation whose landing fired the alert.
        .addColumn('generation', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        // Minor units: the price before the landing (null when the product had none or was absent),
        // after it, and the subscription's price (price_drop).
        .addColumn('old_price', 'bigint')
        .addColumn('new_price', 'bigint')
        .addColumn('subscribed_price', 'bigint')
        // 'pending' until messaging takes it.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_alerts_pk', ['shop_id', 'generation', 'kind', 'item_id', 'profile_id'])
        .execute();
      await db.schema.createIndex('product_alerts_status_idx').on('product_alerts').columns(['shop_id', 'status', 'created_at']).execute();
      await db.schema.createIndex('product_alerts_profile_idx').on('product_alerts').columns(['shop_id', 'profile_id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('product_alerts').execute();
      await db.schema.dropTable('product_subscriptions').execute();
    },
  };
}
