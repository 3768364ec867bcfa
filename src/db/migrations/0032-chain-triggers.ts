import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Chain trigger detectors (src/modules/chains/triggers, docs/chains.md, "Triggers").
 *
 * `chain_list_watches`: per profile and list (cart, wish), the newest list event the
 * abandoned-list detector has heard of. A row moves only forward (to a higher event id),
 * so events handled out of order or twice leave it where the newest one put it; a check
 * due after_seconds later fires only while the row still names the event that armed it.
 * `armed` is 0 when that newest event was a purchase (it ends the abandoned cart).
 *
 * No foreign key to profiles: profiles are never deleted (merges leave tombstones).
 */
export function chainTriggers(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chain_list_watches')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        // 'cart' or 'wish'.
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('armed', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('chain_list_watches_pk', ['shop_id', 'profile_id', 'list'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('chain_list_watches').execute();
    },
  };
}
