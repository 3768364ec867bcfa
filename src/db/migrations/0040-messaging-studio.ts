import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * What the template editor and the chain builder read and write (docs/messaging-templates.md,
 * docs/chains.md):
 * - messaging_message_templates: the templates (and sample profile) a test send of a template
 *   not saved anywhere carries, by its message's code; its delivery renders them.
 * - messaging_test_sends: each shop's test sends in the current window, held by one
 *   conditional upsert (the rate limit of test sends).
 * - chain_runs (shop_id, chain_id, version, step, status): a chain's per-step statistics as
 *   an indexed aggregate over that chain's runs, never a scan of the shop's.
 * - chain_runs (shop_id, chain_id, id): a chain's runs a page at a time, newest first.
 * - messaging_messages (shop_id, mailing_id, mailing_code) of chain messages only (a partial
 *   index: transactional and bulk messages pay nothing): a chain's messages per send step.
 */
export function messagingStudio(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('messaging_message_templates')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('templates', 'text', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_message_templates_pk', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createTable('messaging_test_sends')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('sent', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('messaging_test_sends_pk', ['shop_id'])
        .execute();
      await db.schema
        .createIndex('chain_runs_chain_step')
        .on('chain_runs')
        .columns(['shop_id', 'chain_id', 'version', 'step', 'status'])
        .execute();
      await db.schema.createIndex('chain_runs_chain_id').on('chain_runs').columns(['shop_id', 'chain_id', 'id']).execute();
      await db.schema
        .createIndex('messaging_messages_chain_step')
        .on('messaging_messages')
        .columns(['shop_id', 'mailing_id', 'mailing_code'])
        .where(sql.ref('type'), '=', 'chain')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('messaging_messages_chain_step').execute();
      await db.schema.dropIndex('chain_runs_chain_id').execute();
      await db.schema.dropIndex('chain_runs_chain_step').execute();
      await db.schema.dropTable('messaging_test_sends').execute();
      await db.schema.dropTable('messaging_message_templates').execute();
    },
  };
}
