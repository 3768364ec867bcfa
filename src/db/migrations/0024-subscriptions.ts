import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Paid subscriptions (src/modules/subscriptions, docs/subscriptions.md).
 * - `subscriptions`, `subscription_plans`: the admin's definitions; a plan's benefits are
 *   one JSON document (`benefits`), read and written whole with the plan.
 * - `subscription_members`: one row per subscription and member; `started_on` (a date
 *   of the shop's time zone) anchors the billing periods, `paid_till` is the last paid day.
 * - `subscription_usage`: one row per member, promos benefit and billing period, keyed by
 *   the period's first day: a new period is a new row, so a "reset" is never run and
 *   can never happen twice. `savings_*` are minor units.
 * - `subscription_holds`: one row per order and benefit, held | captured | released,
 *   naming the period row it counts in.
 * - `checkout_orders.subscription`: the subscription code an order was applied with.
 */
export function subscriptions(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shop = 'shop_id';
      await db.schema
        .createTable('subscriptions')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscriptions_pk', ['shop_id', 'code'])
        .execute();

      await db.schema
        .createTable('subscription_plans')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('subscription', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('period_days', 'integer', (c) => c.notNull())
        .addColumn('benefits', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscription_plans_pk', ['shop_id', 'subscription', 'code'])
        .execute();

      await db.schema
        .createTable('subscription_members')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('subscription', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('started_on', 'text', (c) => c.notNull())
        .addColumn('paid_till', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscription_members_pk', ['shop_id', 'subscription', 'profile_id'])
        .execute();
      await db.schema
        .createIndex('subscription_members_list')
        .on('subscription_members')
        .columns(['shop_id', 'subscription', 'identifier'])
        .execute();

      await db.schema
        .createTable('subscription_usage')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('subscription', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('benefit', 'text', (c) => c.notNull())
        .addColumn('period_start', 'text', (c) => c.notNull())
        .addColumn('savings_used', 'bigint', (c) => c.notNull())
        .addColumn('savings_held', 'bigint', (c) => c.notNull())
        .addColumn('usage_used', 'bigint', (c) => c.notNull())
        .addColumn('usage_held', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscription_usage_pk', ['shop_id', 'subscription', 'profile_id', 'benefit', 'period_start'])
        .addCheckConstraint(
          'subscription_usage_counts',
          sql`savings_used >= 0 and savings_held >= 0 and usage_used >= 0 and usage_held >= 0`,
        )
        .execute();

      await db.schema
        .createTable('subscription_holds')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('benefit', 'text', (c) => c.notNull())
        .addColumn('subscription', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('period_start', 'text', (c) => c.notNull())
        .addColumn('savings', 'bigint', (c) => c.notNull())
        .addColumn('uses', 'bigint', (c) => c.notNull())
        // held | captured | released
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscription_holds_pk', ['shop_id', 'order_id', 'benefit'])
        .execute();

      await db.schema.alterTable('checkout_orders').addColumn('subscription', 'text').execute();
      await db.schema
        .createIndex('checkout_orders_subscription')
        .on('checkout_orders')
        .columns(['shop_id', 'subscription', 'profile_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('checkout_orders_subscription').execute();
      await db.schema.alterTable('checkout_orders').dropColumn('subscription').execute();
      for (const table of ['subscription_holds', 'subscription_usage', 'subscription_members', 'subscription_plans', 'subscriptions']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
