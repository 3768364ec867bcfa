import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Event rewards (src/modules/loyalty/loyalty-rewards.service.ts, docs/loyalty.md "Event
 * rewards"):
 * - `loyalty_event_rewards`: the shop's rules, one per custom event code, with the
 *   amount in minor units that a member's first event with that code earns;
 * - `loyalty_event_rewarded`: one row per member and code that was rewarded. Its primary
 *   key is the "once per member and code" rule: the row is inserted in the transaction
 *   of the credit, so a second credit for the same member and code cannot commit,
 *   however many deliveries race. `transaction_id` is the credit; `event_id` the event
 *   that earned it.
 */
export function loyaltyEventRewards(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('loyalty_event_rewards')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('event_code', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_event_rewards_pk', ['shop_id', 'event_code'])
        .addCheckConstraint('loyalty_event_rewards_amount', sql`amount > 0`)
        .execute();

      await db.schema
        .createTable('loyalty_event_rewarded')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('event_code', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_event_rewarded_pk', ['shop_id', 'profile_id', 'event_code'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('loyalty_event_rewarded').execute();
      await db.schema.dropTable('loyalty_event_rewards').execute();
    },
  };
}
