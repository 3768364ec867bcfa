import { sql, type Kysely } from 'kysely';
import { addSerialPrimaryKey, type Dialect } from '../dialect.js';

/**
 * The durable job queue (src/jobs). It is one global queue, not shop data, so it has
 * its own id key; a job that concerns a shop carries the shop in its payload.
 */
export function jobs(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addSerialPrimaryKey(db.schema.createTable('jobs'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addCheckConstraint('jobs_status_check', sql`status in ('queued', 'running', 'done', 'failed')`)
        .execute();

      // Claiming looks for due queued jobs and expired running ones.
      await db.schema.createIndex('jobs_status_run_at_idx').on('jobs').columns(['status', 'run_at']).execute();
      // Enqueue dedups on this with ON CONFLICT; NULL keys never collide, so jobs
      // without a key are never deduplicated.
      await db.schema.createIndex('jobs_name_idempotency_key_uq').on('jobs').columns(['name', 'idempotency_key']).unique().execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('jobs').execute();
    },
  };
}
