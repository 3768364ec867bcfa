import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export function core(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('shops')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('restricted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('paid_till', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('custom_event_codes')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('custom_event_codes_pk', ['shop_id', 'code'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('custom_event_codes').execute();
      await db.schema.dropTable('shops').execute();
      await db.schema.dropTable('settings').execute();
    },
  };
}
