import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Loyalty checkout orders (src/modules/checkout, docs/checkout.md "Orders").
 * - `status`: created → completed | cancelled, each move one conditional UPDATE.
 * - `request`, `result`: JSON text of the apply's request and the whole stored calculation.
 * - `bonus_hold_id`: the ledger hold of the bonuses charged (null: none);
 *   `reward_transaction_id`: the reward credit, set once by a conditional UPDATE in the
 *   ledger write that credits it.
 * - `steps_done`: 1 once the steps that follow the current status (capture, reward …, or
 *   the release / refund) have all run, so a repeated confirm or cancel finishes what a
 *   crash left half done, and otherwise does nothing.
 * - totals in minor units (money: kopecks; bonuses: hundredths of a bonus).
 */
export function checkoutOrders(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('checkout_orders')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint')
        .addColumn('identifier', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('bonus_hold_id', 'bigint')
        .addColumn('reward_transaction_id', 'bigint')
        .addColumn('steps_done', 'integer', (c) => c.notNull())
        .addColumn('order_total', 'bigint', (c) => c.notNull())
        .addColumn('order_to_pay', 'bigint', (c) => c.notNull())
        .addColumn('bonuses_charged', 'bigint', (c) => c.notNull())
        .addColumn('bonuses_reward', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('cancelled_at', 'bigint')
        .addPrimaryKeyConstraint('checkout_orders_pk', ['shop_id', 'order_id'])
        .execute();
      await db.schema
        .createIndex('checkout_orders_profile')
        .on('checkout_orders')
        .columns(['shop_id', 'profile_id', 'created_at'])
        .execute();
      await db.schema.createIndex('checkout_orders_created').on('checkout_orders').columns(['shop_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('checkout_orders').execute();
    },
  };
}
