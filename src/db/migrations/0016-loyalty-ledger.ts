import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The loyalty ledger (src/modules/loyalty, docs/loyalty.md). Amounts are integer minor
 * units (kopecks). There is no balance column anywhere: a member's balance is derived
 * from the remaining amounts of confirmed lots minus active holds.
 * - `loyalty_settings`: the programme of a shop; percents and `bonus_value` in hundredths.
 * - `loyalty_sequences`: per-shop counter of ledger transaction ids (a composite key
 *   cannot auto-increment on SQLite).
 * - `loyalty_members`: a profile with a loyalty identity. `version` is bumped by every
 *   ledger write of the member: the UPDATE is the per-member lock on PostgreSQL.
 * - `loyalty_transactions`: every change, with its id; listed newest first.
 * - `loyalty_lots`: credits, each with its own expiry; `remaining` never below 0 (CHECK).
 * - `loyalty_allocations`: which lots a debit or spend drew from, and how much, so that
 *   a refund can restore exactly those lots.
 * - `loyalty_holds`: amounts blocked for an order (a pending debit), one active per order.
 */
export function loyaltyLedger(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopColumn = 'shop_id';
      await db.schema
        .createTable('loyalty_settings')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('reward_percent', 'integer', (c) => c.notNull())
        .addColumn('max_bonus_share_percent', 'integer', (c) => c.notNull())
        .addColumn('bonus_value', 'integer', (c) => c.notNull())
        .addColumn('bonus_lifetime_days', 'integer')
        .addColumn('reward_pending_days', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_settings_pk', ['shop_id'])
        .execute();

      await db.schema
        .createTable('loyalty_sequences')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_sequences_pk', ['shop_id'])
        .execute();

      await db.schema
        .createTable('loyalty_members')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_members_pk', ['shop_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('loyalty_transactions')
        .addColumn(shopColumn, 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        // credit | debit | hold
        .addColumn('entry', 'text', (c) => c.notNull())
        // Signed: credits positive, debits and holds negative.
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('order_id', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_transactions_pk', ['shop_id', 'id'])
        .execute();
      await db.schema
        .createIndex('loyalty_transactions_member')
        .on('loyalty_transactions')
        .columns(['shop_id', 'profile_id', 'id'])
        .execute();

      await db.schema
        .createTable('loyalty_lots')
        .addColumn(shopColumn, 'text', (c) => c.notNull())
        // The id of the credit transaction that made the lot.
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('remaining', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('order_id', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_lots_pk', ['shop_id', 'id'])
        .addCheckConstraint('loyalty_lots_remaining', sql`remaining >= 0 and remaining <= amount and amount > 0`)
        .execute();
      await db.schema
        .createIndex('loyalty_lots_member')
        .on('loyalty_lots')
        .columns(['shop_id', 'profile_id', 'status', 'expires_at'])
        .execute();

      await db.schema
        .createTable('loyalty_allocations')
        .addColumn(shopColumn, 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'bigint', (c) => c.notNull())
        .addColumn('lot_id', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_allocations_pk', ['shop_id', 'transaction_id', 'lot_id'])
        .addCheckConstraint('loyalty_allocations_amount', sql`amount > 0`)
        .execute();
      await db.schema.createIndex('loyalty_allocations_lot').on('loyalty_allocations').columns(['shop_id', 'lot_id']).execute();

      await db.schema
        .createTable('loyalty_holds')
        .addColumn(shopColumn, 'text', (c) => c.notNull())
        // The id of the hold transaction.
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        // active | released | captured
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_holds_pk', ['shop_id', 'id'])
        .addCheckConstraint('loyalty_holds_amount', sql`amount > 0`)
        .execute();
      await db.schema.createIndex('loyalty_holds_member').on('loyalty_holds').columns(['shop_id', 'profile_id', 'status']).execute();
      // At most one active hold per order: a second apply of an order must release the first.
      await db.schema
        .createIndex('loyalty_holds_active_order')
        .on('loyalty_holds')
        .columns(['shop_id', 'order_id'])
        .unique()
        .where(sql.ref('status'), '=', 'active')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'loyalty_holds',
        'loyalty_allocations',
        'loyalty_lots',
        'loyalty_transactions',
        'loyalty_members',
        'loyalty_sequences',
        'loyalty_settings',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
