import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { bytesColumnType, type Dialect } from '../dialect.js';

/**
 * The delivery log and the channels' health (docs/messaging.md, "Channels in the admin API"
 * and "The delivery log"):
 * - `messaging_channel_stats`: sent, failed and bounced per shop, channel and hour, in a
 *   ring of 24 slots (`slot` = hour mod 24): the slot of a new hour is reset by the same
 *   upsert that counts into it, so the table never grows past 24 rows a channel and needs
 *   no sweep. The health of the last 24 hours is the sum of at most 24 rows.
 * - `messaging_channel_errors`: the last error a vendor answered on each channel.
 * - `messaging_channel_tests`: the test-send allowance of a shop, a fixed window counted
 *   by one conditional UPDATE.
 * - `messaging_delivery_attempts`: each try of a delivery: when, the vendor, the outcome
 *   and the vendor's answer (its message id or its error), how long it took.
 * - `messaging_delivery_html`: the HTML of each email as rendered (before the tracking
 *   links), deflated; the text, subject and push fields stay on the delivery.
 * - `webhook_deliveries.last_duration_ms`: how long an outbound webhook's last attempt took.
 * - indexes of the delivery log's filters, each led by `shop_id` and ending in `created_at`
 *   (the log's order): the whole shop, by channel, status, type and customer, and one
 *   partial index per outcome.
 */
export function deliveryLog(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopRef = (c: ColumnDefinitionBuilder) => c.notNull().references('shops.shop_id').onDelete('cascade');
      await db.schema
        .createTable('messaging_channel_stats')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('sent', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('bounced', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_channel_stats_pk', ['shop_id', 'channel', 'slot'])
        .execute();
      await db.schema
        .createTable('messaging_channel_errors')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_channel_errors_pk', ['shop_id', 'channel'])
        .execute();
      await db.schema
        .createTable('messaging_channel_tests')
        .addColumn('shop_id', 'text', (c) => shopRef(c).primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('messaging_delivery_attempts')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_delivery_attempts_pk', ['shop_id', 'code', 'seq', 'attempt'])
        .execute();
      await db.schema
        .createTable('messaging_delivery_html')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('html', bytesColumnType(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_delivery_html_pk', ['shop_id', 'code', 'seq'])
        .execute();
      for (const [name, columns] of LOG_INDEXES) {
        await db.schema.createIndex(name).on('messaging_deliveries').columns(columns).execute();
      }
      for (const column of OUTCOME_COLUMNS) {
        await db.schema
          .createIndex(`messaging_deliveries_log_${column}`)
          .on('messaging_deliveries')
          .columns(['shop_id', 'created_at'])
          .where(sql.ref(column), 'is not', null)
          .execute();
      }
      await db.schema.alterTable('webhook_deliveries').addColumn('last_duration_ms', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('webhook_deliveries').dropColumn('last_duration_ms').execute();
      for (const [name] of LOG_INDEXES) await db.schema.dropIndex(name).execute();
      for (const column of OUTCOME_COLUMNS) await db.schema.dropIndex(`messaging_deliveries_log_${column}`).execute();
      for (const table of [
        'messaging_delivery_html',
        'messaging_delivery_attempts',
        'messaging_channel_tests',
        'messaging_channel_errors',
        'messaging_channel_stats',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/**
 * Partial indexes, one per outcome: a delivery enters one only when that outcome is set,
 * so sending writes none of them, and a search for a rare outcome reads only its rows.
 */
const OUTCOME_COLUMNS = [
  'delivered_at',
  'opened_at',
  'clicked_at',
  'unsubscribed_at',
  'hard_bounced_at',
  'soft_bounced_at',
  'complained_at',
  'purchased_at',
] as const;

const LOG_INDEXES: ReadonlyArray<readonly [string, string[]]> = [
  ['messaging_deliveries_log_created', ['shop_id', 'created_at']],
  ['messaging_deliveries_log_channel', ['shop_id', 'channel', 'created_at']],
  ['messaging_deliveries_log_status', ['shop_id', 'status', 'created_at']],
  ['messaging_deliveries_log_type', ['shop_id', 'type', 'created_at']],
  ['messaging_deliveries_log_profile', ['shop_id', 'profile_id', 'created_at']],
];
