import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Popups (docs/popups.md): what a shop shows in its apps, with a per-shop integer id from
 * popup_sequences; which device was shown or clicked which popup (a unique key each, so
 * that a repeated report counts once); and the last offer made to each device (one row a
 * device, replaced only when the last offer is 60 s old: at most one popup a minute).
 */
export function popups(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('popup_sequences')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('popup_sequences_pk', ['shop_id'])
        .execute();
      await db.schema
        .createTable('popups')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('delay', 'integer', (c) => c.notNull())
        .addColumn('streams', 'text', (c) => c.notNull())
        .addColumn('screens', 'text', (c) => c.notNull())
        .addColumn('channels', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('actions', 'text', (c) => c.notNull())
        .addColumn('web_push_system', 'integer', (c) => c.notNull())
        .addColumn('segment_id', 'bigint')
        .addColumn('starts_at', 'bigint')
        .addColumn('ends_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('popups_pk', ['shop_id', 'id'])
        .execute();
      await db.schema.createIndex('popups_status_idx').on('popups').columns(['shop_id', 'status']).execute();
      for (const table of ['popup_shows', 'popup_clicks']) {
        await db.schema
          .createTable(table)
          .addColumn('shop_id', 'text', (c) => c.notNull())
          .addColumn('popup_id', 'bigint', (c) => c.notNull())
          .addColumn('did', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['shop_id', 'popup_id', 'did'])
          .addForeignKeyConstraint(`${table}_popup_fk`, ['shop_id', 'popup_id'], 'popups', ['shop_id', 'id'], (fk) =>
            fk.onDelete('cascade'),
          )
          .execute();
      }
      // A device's shown popups, read per offer.
      await db.schema.createIndex('popup_shows_device_idx').on('popup_shows').columns(['shop_id', 'did']).execute();
      await db.schema
        .createTable('popup_offers')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('did', 'text', (c) => c.notNull())
        .addColumn('popup_id', 'bigint', (c) => c.notNull())
        .addColumn('offered_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('popup_offers_pk', ['shop_id', 'did'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('popup_offers').execute();
      await db.schema.dropTable('popup_clicks').execute();
      await db.schema.dropTable('popup_shows').execute();
      await db.schema.dropTable('popups').execute();
      await db.schema.dropTable('popup_sequences').execute();
    },
  };
}
