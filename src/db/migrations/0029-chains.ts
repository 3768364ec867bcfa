import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Triggered message chains (src/modules/chains, docs/chains.md). A chain's steps live in
 * versions: a PUT writes a new version and runs keep the version they started on. A run
 * is durable state (a wait of a week is a row with a due time and a queued job, not a
 * sleeping process). Limits are unique constraints: one run per chain and firing key (a
 * trigger handed over twice starts one run), one entry row per chain and profile whose
 * conditional upsert decides re-entry.
 */
export function chains(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chains')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('trigger_kind', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('reentry', 'text', (c) => c.notNull())
        .addColumn('reentry_period_ms', 'bigint')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chains_pk', ['shop_id', 'id'])
        .addUniqueConstraint('chains_code_unique', ['shop_id', 'code'])
        .execute();
      // What the trigger detectors ask: the shop's active chains of a trigger kind.
      await db.schema.createIndex('chains_trigger').on('chains').columns(['shop_id', 'trigger_kind', 'status']).execute();
      await db.schema
        .createTable('chain_versions')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('steps', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chain_versions_pk', ['shop_id', 'chain_id', 'version'])
        .execute();
      await db.schema
        .createTable('chain_runs')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('firing_key', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .addColumn('variables', 'text', (c) => c.notNull())
        .addColumn('products', 'text')
        .addColumn('reason', 'text')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addPrimaryKeyConstraint('chain_runs_pk', ['shop_id', 'id'])
        // A firing handed over twice starts one run.
        .addUniqueConstraint('chain_runs_firing_unique', ['shop_id', 'chain_id', 'firing_key'])
        .execute();
      // A profile's runs: the admin's runs read and endRuns (a purchase ends abandoned-cart runs).
      await db.schema.createIndex('chain_runs_profile').on('chain_runs').columns(['shop_id', 'profile_id', 'status']).execute();
      await db.schema
        .createTable('chain_entries')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('entered_at', 'bigint', (c) => c.notNull())
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chain_entries_pk', ['shop_id', 'chain_id', 'profile_id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('chain_entries').execute();
      await db.schema.dropTable('chain_runs').execute();
      await db.schema.dropTable('chain_versions').execute();
      await db.schema.dropTable('chains').execute();
    },
  };
}
