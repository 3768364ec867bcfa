import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Bulk mailings and messaging limits (src/modules/bulk, docs/bulk.md).
 * - `bulk_mailings`: a mailing to segments, with the expansion's stored cursor (stage,
 *   pages, cursor, position) so a restarted worker resumes where the last page committed.
 * - `bulk_recipients`: one row per (mailing, profile): the primary key makes every member
 *   of several segments a recipient once; what became of it (held, messaged, skipped).
 * - `messaging_limits`: a shop's frequency caps and quiet hours per channel.
 * - `bulk_cap_counters`: bulk messages per profile, channel and calendar day or week,
 *   raised by one conditional upsert (never read-then-write).
 */
export function bulk(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopRef = (c: ColumnDefinitionBuilder) => c.notNull().references('shops.shop_id').onDelete('cascade');
      const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
      await db.schema
        .createTable('bulk_mailings')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('id', 'bigint', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('segment_ids', 'text', notNull)
        .addColumn('templates', 'text', notNull)
        .addColumn('ab', 'text')
        .addColumn('throttle_per_minute', 'integer')
        .addColumn('send_at', 'bigint', notNull)
        .addColumn('stage', 'text', notNull)
        .addColumn('pages', 'integer', notNull)
        .addColumn('cursor', 'bigint', notNull)
        .addColumn('position', 'bigint', notNull)
        .addColumn('slot_base', 'bigint', notNull)
        .addColumn('slot_count', 'bigint', notNull)
        .addColumn('winner', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('bulk_mailings_pk', ['shop_id', 'id'])
        .execute();

      await db.schema
        .createTable('bulk_recipients')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('mailing_id', 'bigint', notNull)
        .addColumn('profile_id', 'bigint', notNull)
        .addColumn('variant', 'text', notNull)
        .addColumn('status', 'text', notNull)
        .addColumn('reason', 'text')
        .addColumn('code', 'text')
        .addPrimaryKeyConstraint('bulk_recipients_pk', ['shop_id', 'mailing_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('messaging_limits')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('channel', 'text', notNull)
        .addColumn('bulk_per_day', 'integer')
        .addColumn('bulk_per_week', 'integer')
        .addColumn('quiet_from', 'integer')
        .addColumn('quiet_to', 'integer')
        .addColumn('updated_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('messaging_limits_pk', ['shop_id', 'channel'])
        .execute();

      await db.schema
        .createTable('bulk_cap_counters')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('profile_id', 'bigint', notNull)
        .addColumn('channel', 'text', notNull)
        .addColumn('period', 'text', notNull)
        .addColumn('count', 'integer', notNull)
        .addPrimaryKeyConstraint('bulk_cap_counters_pk', ['shop_id', 'profile_id', 'channel', 'period'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['bulk_cap_counters', 'messaging_limits', 'bulk_recipients', 'bulk_mailings']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
