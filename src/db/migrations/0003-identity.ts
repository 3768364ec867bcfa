import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Identity (src/modules/identity, docs/identity.md): profiles, their devices and the log
 * of merges. Profile ids are random integers below 2^53 made by the service, because a
 * per-shop primary key (shop_id, id) cannot auto-increment on SQLite.
 *
 * The unique indexes on each identifier are the concurrency guard: two profiles can never
 * hold the same identifier, whatever requests race. NULL slots never collide (on both
 * dialects), so profiles without an email coexist.
 */
export function identity(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('profiles')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('external_id', 'text')
        .addColumn('loyalty_id', 'text')
        .addColumn('telegram_id', 'text')
        .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
        // A merged profile stays as a tombstone pointing at its survivor, so that ids kept
        // elsewhere (queued jobs, links in old messages) still lead somewhere.
        .addColumn('merged_into', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('profiles_pk', ['shop_id', 'id'])
        .execute();
      for (const column of ['email', 'phone', 'external_id', 'loyalty_id', 'telegram_id']) {
        await db.schema.createIndex(`profiles_shop_${column}_uq`).on('profiles').columns(['shop_id', column]).unique().execute();
      }
      await db.schema.createIndex('profiles_shop_merged_into_idx').on('profiles').columns(['shop_id', 'merged_into']).execute();

      await db.schema
        .createTable('devices')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('did', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('devices_pk', ['shop_id', 'did'])
        .addForeignKeyConstraint('devices_profile_fk', ['shop_id', 'profile_id'], 'profiles', ['shop_id', 'id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();
      await db.schema.createIndex('devices_shop_profile_idx').on('devices').columns(['shop_id', 'profile_id']).execute();

      await db.schema
        .createTable('profile_merges')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('from_profile_id', 'bigint', (c) => c.notNull())
        .addColumn('into_profile_id', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('identifiers', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_merges_pk', ['shop_id', 'id'])
        .execute();
      await db.schema.createIndex('profile_merges_shop_from_idx').on('profile_merges').columns(['shop_id', 'from_profile_id']).execute();
      await db.schema.createIndex('profile_merges_shop_into_idx').on('profile_merges').columns(['shop_id', 'into_profile_id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('profile_merges').execute();
      await db.schema.dropTable('devices').execute();
      await db.schema.dropTable('profiles').execute();
    },
  };
}
