import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Promotions, promo codes and gift certificates (src/modules/promotions, docs/promotions.md).
 * Amounts are minor units, percents hundredths, times epoch milliseconds.
 * - `promotion_sequences`: per-shop counters of promotion, certificate and pool ids.
 * - `promotions`: the searchable fields as columns, the lists and actions as one JSON
 *   document (`terms`); `version` guards a PATCH against a concurrent one.
 * - `promo_codes`: `used` and `blocked` counters; a block is one conditional UPDATE
 *   (`used + blocked < usage_limit`), and the CHECK holds the same bound.
 * - `promo_code_uses`: one row per order and code: blocked, used, released or cancelled.
 * - `promo_code_members`: a member's uses and blocks of a code, bounded by per_member_limit
 *   in the upsert that counts them.
 * - `certificate_pools`, `certificates` (`balance`, `held`; CHECK 0 ≤ held ≤ balance ≤ amount),
 *   `certificate_holds`: one row per order and certificate code.
 */
export function promotions(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shop = 'shop_id';
      await db.schema
        .createTable('promotion_sequences')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('promotion_sequences_pk', ['shop_id', 'kind'])
        .execute();

      await db.schema
        .createTable('promotions')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'bigint')
        .addColumn('ends_at', 'bigint')
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('discount_type', 'text', (c) => c.notNull())
        .addColumn('discount_value', 'bigint', (c) => c.notNull())
        .addColumn('min_order_total', 'bigint')
        .addColumn('by_promo_code', 'integer', (c) => c.notNull())
        .addColumn('bonus_reward_percent', 'integer', (c) => c.notNull())
        .addColumn('terms', 'text', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('promotions_pk', ['shop_id', 'id'])
        .execute();
      await db.schema.createIndex('promotions_status').on('promotions').columns(['shop_id', 'status', 'id']).execute();

      await db.schema
        .createTable('promo_codes')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('promotion_id', 'bigint', (c) => c.notNull())
        .addColumn('usage_limit', 'bigint')
        .addColumn('per_member_limit', 'bigint')
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addColumn('blocked', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('promo_codes_pk', ['shop_id', 'code'])
        .addCheckConstraint(
          'promo_codes_counts',
          sql`used >= 0 and blocked >= 0 and (usage_limit is null or used + blocked <= usage_limit)`,
        )
        .execute();
      await db.schema.createIndex('promo_codes_promotion').on('promo_codes').columns(['shop_id', 'promotion_id', 'code']).execute();

      await db.schema
        .createTable('promo_code_uses')
        .addColumn(shop, 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint')
        // blocked | used | released | cancelled
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('promo_code_uses_pk', ['shop_id', 'order_id', 'code'])
        .execute();

      await db.schema
        .createTable('promo_code_members')
        .addColumn(shop, 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('taken', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('promo_code_members_pk', ['shop_id', 'code', 'profile_id'])
        .addCheckConstraint('promo_code_members_taken', sql`taken >= 0`)
        .execute();

      await db.schema
        .createTable('certificate_pools')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('certificate_pools_pk', ['shop_id', 'id'])
        .execute();

      await db.schema
        .createTable('certificates')
        .addColumn(shop, 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('pool_id', 'bigint')
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('held', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('certificates_pk', ['shop_id', 'id'])
        .addCheckConstraint('certificates_balance', sql`amount > 0 and held >= 0 and held <= balance and balance <= amount`)
        .execute();
      await db.schema.createIndex('certificates_code').on('certificates').columns(['shop_id', 'code']).unique().execute();

      await db.schema
        .createTable('certificate_holds')
        .addColumn(shop, 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('certificate_id', 'bigint', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        // held | released | captured | refunded
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('certificate_holds_pk', ['shop_id', 'order_id', 'code'])
        .addCheckConstraint('certificate_holds_amount', sql`amount > 0`)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'certificate_holds',
        'certificates',
        'certificate_pools',
        'promo_code_members',
        'promo_code_uses',
        'promo_codes',
        'promotions',
        'promotion_sequences',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
