import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The messaging engine's core (src/modules/messaging, docs/messaging.md).
 * - `messaging_sequences`: per-shop counters (mailing ids: the `campaign_id` of history).
 * - `messaging_channels`: a shop's settings per channel, as JSON `{vendor: settings}`;
 *   secret fields hold AES-256-GCM ciphertext (secret-box.ts), never the plain value.
 * - `messaging_mailings`: transactional mailings by code; `templates` is the JSON of the
 *   channel templates and their locale variants.
 * - `messaging_messages`: one row per accepted POST /transact (its `code`); the request's
 *   variables and copies, so that delivery jobs render from the row. A unique
 *   `(shop_id, idempotency_key)` makes a retried request find the first message.
 * - `messaging_deliveries`: one row per message and address (`seq` within the message);
 *   status queued → sent | failed, what was rendered, and the statistics timestamps the
 *   history's flags are read from.
 * - `messaging_dead_addresses`: addresses and tokens a provider called dead; not tried again.
 */
export function messaging(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const shopRef = (c: ColumnDefinitionBuilder) => c.notNull().references('shops.shop_id').onDelete('cascade');
      await db.schema
        .createTable('messaging_sequences')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_sequences_pk', ['shop_id', 'kind'])
        .execute();

      await db.schema
        .createTable('messaging_channels')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('rate_per_second', 'integer')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_channels_pk', ['shop_id', 'channel'])
        .execute();

      await db.schema
        .createTable('messaging_mailings')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('templates', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_mailings_pk', ['shop_id', 'code'])
        .execute();

      await db.schema
        .createTable('messaging_messages')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('mailing_id', 'bigint', (c) => c.notNull())
        .addColumn('mailing_code', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('test', 'integer', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('variables', 'text', (c) => c.notNull())
        .addColumn('cc', 'text', (c) => c.notNull())
        .addColumn('bcc', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_messages_pk', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createIndex('messaging_messages_idempotency')
        .on('messaging_messages')
        .columns(['shop_id', 'idempotency_key'])
        .unique()
        .execute();

      await db.schema
        .createTable('messaging_deliveries')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('platform', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('mailing_id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('test', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('provider_message_id', 'text')
        .addColumn('subject', 'text')
        .addColumn('body', 'text')
        .addColumn('url', 'text')
        .addColumn('icon', 'text')
        .addColumn('picture', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('opened_at', 'bigint')
        .addColumn('clicked_at', 'bigint')
        .addColumn('unsubscribed_at', 'bigint')
        .addColumn('hard_bounced_at', 'bigint')
        .addColumn('soft_bounced_at', 'bigint')
        .addColumn('complained_at', 'bigint')
        .addColumn('purchased_at', 'bigint')
        .addPrimaryKeyConstraint('messaging_deliveries_pk', ['shop_id', 'code', 'seq'])
        .execute();
      // History and counters of one customer, newest first.
      await db.schema
        .createIndex('messaging_deliveries_profile')
        .on('messaging_deliveries')
        .columns(['shop_id', 'profile_id', 'sent_at'])
        .execute();
      // The admin's delivery log by address.
      await db.schema
        .createIndex('messaging_deliveries_address')
        .on('messaging_deliveries')
        .columns(['shop_id', 'address', 'created_at'])
        .execute();

      await db.schema
        .createTable('messaging_dead_addresses')
        .addColumn('shop_id', 'text', shopRef)
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_dead_addresses_pk', ['shop_id', 'channel', 'address'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'messaging_dead_addresses',
        'messaging_deliveries',
        'messaging_messages',
        'messaging_mailings',
        'messaging_channels',
        'messaging_sequences',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
