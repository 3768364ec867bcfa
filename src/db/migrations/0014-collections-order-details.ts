import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Product collections (src/modules/collections): named lists of offer ids kept in the
 * admin API and served by GET /collection/{id}; and the purchase details the mobile SDK's
 * trackPurchase sends (contract-notes "POST /push"), stored with the order under their
 * contract names. Money columns are minor units (kopecks), like items_total.
 */
export function collectionsOrderDetails(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('product_collections')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // JSON array of offer ids, in display order.
        .addColumn('product_ids', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_collections_pk', ['shop_id', 'id'])
        .execute();

      // SQLite adds one column per ALTER TABLE.
      const columns: ReadonlyArray<readonly [string, 'bigint' | 'text' | 'integer']> = [
        ['order_cash', 'bigint'],
        ['order_bonuses', 'bigint'],
        ['order_delivery', 'bigint'],
        ['order_discount', 'bigint'],
        ['channel', 'text'],
        ['tax_free', 'integer'],
        ['gift_package', 'integer'],
        ['delivery_address', 'text'],
        // JSON object of the order's custom properties.
        ['custom', 'text'],
        ['stream', 'text'],
      ];
      for (const [name, type] of columns) await db.schema.alterTable('orders').addColumn(name, type).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const name of [
        'stream',
        'custom',
        'delivery_address',
        'gift_package',
        'tax_free',
        'channel',
        'order_discount',
        'order_delivery',
        'order_bonuses',
        'order_cash',
      ]) {
        await db.schema.alterTable('orders').dropColumn(name).execute();
      }
      await db.schema.dropTable('product_collections').execute();
    },
  };
}
