import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Signed outbound webhooks (src/modules/webhooks, docs/webhooks.md).
 * - `webhook_counters`: one row per shop holding its number of endpoints, so that the cap
 *   on endpoints is one conditional UPDATE (never count-then-insert).
 * - `webhook_endpoints`: a shop's URLs and the event types each receives; the signing
 *   secret sealed at rest (secret-box.ts), and the previous one while a rotation's grace
 *   period runs.
 * - `webhook_deliveries`: one row per event and endpoint, its id being the `webhook-id`
 *   the receiver sees. The id is derived from the event, so recording an event twice
 *   (a repeated pixel load, a redelivered tracking job) inserts nothing the second time.
 */
export function webhooks(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_counters')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('endpoints', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_counters_pk', ['shop_id'])
        .execute();

      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_endpoints_pk', ['shop_id', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['shop_id', 'endpoint_id', 'id'])
        .addForeignKeyConstraint('webhook_deliveries_endpoint', ['shop_id', 'endpoint_id'], 'webhook_endpoints', ['shop_id', 'id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();
      // An endpoint's deliveries, newest first (the admin's list).
      await db.schema
        .createIndex('webhook_deliveries_recent')
        .on('webhook_deliveries')
        .columns(['shop_id', 'endpoint_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['webhook_deliveries', 'webhook_endpoints', 'webhook_counters']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
