import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The loyalty upkeep chain and the admin's member list (docs/loyalty.md, "Upkeep" and
 * "Admin API"):
 * - `loyalty_upkeep`: one row per shop holding the instant of its sweep chain's next
 *   link (null: no chain). It is the chain's single source of truth: a link runs the
 *   sweep and moves it on only while it is still the shop's due link, so two enqueues
 *   never fork the chain.
 * - `loyalty_members_joined`: the member list pages newest member first through
 *   (shop_id, created_at, profile_id), and its `joined_from`/`joined_to` are ranges of it.
 */
export function loyaltyAdmin(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('loyalty_upkeep')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('next_sweep_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('loyalty_upkeep_pk', ['shop_id'])
        .execute();
      await db.schema
        .createIndex('loyalty_members_joined')
        .on('loyalty_members')
        .columns(['shop_id', 'created_at', 'profile_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('loyalty_members_joined').execute();
      await db.schema.dropTable('loyalty_upkeep').execute();
    },
  };
}
