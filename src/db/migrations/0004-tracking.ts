import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Tracking (src/modules/tracking): sessions, the event log, carts and wish lists, orders
 * from purchase events and pre-aggregated product counters.
 *
 * Event and order ids are allocated per shop from `tracking_sequences`, in the batch
 * that inserts them (one multi-row upsert … RETURNING per batch): the primary keys stay
 * (shop_id, id) like every shop table, multi-row inserts need no RETURNING order from
 * the database, and ids grow with every commit, so "newest first" is `id desc`. The
 * sequence row stays locked until the batch commits: a shop's batches commit one after
 * another even from several processes, which also keeps the read-modify-write of carts
 * and wish lists from losing updates.
 *
 * No foreign keys to shops or profiles here: these are the hottest inserts of the
 * service, and on PostgreSQL every referencing row costs a lookup and a row lock on the
 * parent. Profiles are never deleted (merges leave tombstones) and events are moved by
 * the merge participant.
 */
export function tracking(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tracking_sequences')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('tracking_sequences_pk', ['shop_id', 'name'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('sid', 'text', (c) => c.notNull())
        .addColumn('did', 'text')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sessions_pk', ['shop_id', 'sid'])
        .execute();

      await db.schema
        .createTable('events')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('did', 'text')
        .addColumn('sid', 'text')
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('custom', 'integer', (c) => c.notNull())
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        // Attribution, in columns of their own for the reports that will group by them.
        .addColumn('stream', 'text')
        .addColumn('segment', 'text')
        .addColumn('recommended_by', 'text')
        .addColumn('recommended_code', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['shop_id', 'id'])
        .execute();
      // The admin read API: a device's newest events.
      await db.schema.createIndex('events_shop_did_id_idx').on('events').columns(['shop_id', 'did', 'id']).execute();
      // A profile's history, and moving it on a merge.
      await db.schema.createIndex('events_shop_profile_time_idx').on('events').columns(['shop_id', 'profile_id', 'time']).execute();

      await db.schema
        .createTable('profile_lists')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_lists_pk', ['shop_id', 'profile_id', 'list'])
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('event_id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('did', 'text')
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('delivery_type', 'text')
        .addColumn('payment_type', 'text')
        .addColumn('promocode', 'text')
        .addColumn('items_total', 'bigint', (c) => c.notNull())
        .addColumn('order_price', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('orders_pk', ['shop_id', 'id'])
        .execute();
      // A repeated purchase with the same order_id records its event but no second order;
      // NULL order ids never collide.
      await db.schema.createIndex('orders_shop_order_id_uq').on('orders').columns(['shop_id', 'order_id']).unique().execute();
      await db.schema
        .createIndex('orders_shop_profile_created_idx')
        .on('orders')
        .columns(['shop_id', 'profile_id', 'created_at'])
        .execute();

      // The key leads with the bucket, not the item: a batch's increments all land in the
      // current bucket's few pages instead of one page per item, and pruning is a range of
      // the key. Reading one item seeks each bucket of its windows (30 point lookups).
      await db.schema
        .createTable('product_counters')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        // Bucket length in minutes (domain/counters.ts).
        .addColumn('granularity', 'integer', (c) => c.notNull())
        // Bucket start, ms since the epoch.
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('views', 'bigint', (c) => c.notNull())
        .addColumn('carts', 'bigint', (c) => c.notNull())
        .addColumn('purchases', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_counters_pk', ['shop_id', 'granularity', 'bucket', 'item_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['product_counters', 'orders', 'profile_lists', 'events', 'sessions', 'tracking_sequences']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
