import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Loyalty levels and the referral programme (src/modules/loyalty, docs/loyalty.md
 * "Levels" and "Referrals"). Amounts are integer minor units, percents hundredths.
 * - `loyalty_level_ladders`: a shop's ladder: the purchase window and the due instant of
 *   its daily recompute chain (`next_run_at`, null when no chain runs).
 * - `loyalty_levels`: the levels of a ladder, by code.
 * - `loyalty_purchases`: the confirmed (or cancelled) orders of members that count toward
 *   levels; one row per order, so an order reported twice counts once.
 * - `loyalty_members.level_code` / `level_expires_at`: the member's level as last computed,
 *   and when it would drop with no more purchases; the daily job reads the latter.
 * - `loyalty_referral_programs`: a shop's referral programme.
 * - `loyalty_referral_codes`: a member's own code (one per member, unique in the shop).
 * - `loyalty_referrals`: who referred whom (one referrer per referee) and the reward.
 */
export function loyaltyLevels(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopColumn = 'shop_id';
      await db.schema
        .createTable('loyalty_level_ladders')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('window_days', 'integer', (c) => c.notNull())
        .addColumn('next_run_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_level_ladders_pk', ['shop_id'])
        .execute();

      await db.schema
        .createTable('loyalty_levels')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('min_total', 'bigint', (c) => c.notNull())
        .addColumn('reward_percent', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_levels_pk', ['shop_id', 'code'])
        .addCheckConstraint('loyalty_levels_bounds', sql`min_total >= 0 and reward_percent between 0 and 10000`)
        .execute();

      await db.schema
        .createTable('loyalty_purchases')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        // confirmed | cancelled
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('purchased_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_purchases_pk', ['shop_id', 'order_id'])
        .addCheckConstraint('loyalty_purchases_amount', sql`amount > 0`)
        .execute();
      await db.schema
        .createIndex('loyalty_purchases_member')
        .on('loyalty_purchases')
        .columns(['shop_id', 'profile_id', 'purchased_at'])
        .execute();

      await db.schema.alterTable('loyalty_members').addColumn('level_code', 'text').execute();
      await db.schema.alterTable('loyalty_members').addColumn('level_expires_at', 'bigint').execute();
      await db.schema.createIndex('loyalty_members_level_expiry').on('loyalty_members').columns(['shop_id', 'level_expires_at']).execute();

      await db.schema
        .createTable('loyalty_referral_programs')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (c) => c.notNull())
        // fixed | percent
        .addColumn('reward_type', 'text', (c) => c.notNull())
        // fixed: minor units of bonuses; percent: hundredths of a percent.
        .addColumn('reward_value', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_referral_programs_pk', ['shop_id'])
        .execute();

      await db.schema
        .createTable('loyalty_referral_codes')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_referral_codes_pk', ['shop_id', 'profile_id'])
        .execute();
      // A code names one member of the shop: the database, not a lookup, keeps it unique.
      await db.schema
        .createIndex('loyalty_referral_codes_code')
        .on('loyalty_referral_codes')
        .columns(['shop_id', 'code'])
        .unique()
        .execute();

      await db.schema
        .createTable('loyalty_referrals')
        .addColumn(shopColumn, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('referee_id', 'bigint', (c) => c.notNull())
        .addColumn('referrer_id', 'bigint', (c) => c.notNull())
        // open | rewarded | closed | cancelled
        .addColumn('status', 'text', (c) => c.notNull())
        // The purchase that closed the referral, and the referrer's credit for it.
        .addColumn('order_id', 'text')
        .addColumn('transaction_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_referrals_pk', ['shop_id', 'referee_id'])
        .addCheckConstraint('loyalty_referrals_not_self', sql`referee_id <> referrer_id`)
        .execute();
      await db.schema
        .createIndex('loyalty_referrals_referrer')
        .on('loyalty_referrals')
        .columns(['shop_id', 'referrer_id', 'status'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'loyalty_referrals',
        'loyalty_referral_codes',
        'loyalty_referral_programs',
        'loyalty_purchases',
        'loyalty_levels',
        'loyalty_level_ladders',
      ]) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.dropIndex('loyalty_members_level_expiry').execute();
      await db.schema.alterTable('loyalty_members').dropColumn('level_expires_at').execute();
      await db.schema.alterTable('loyalty_members').dropColumn('level_code').execute();
    },
  };
}
