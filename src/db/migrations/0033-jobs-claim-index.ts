import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The job claim's index is (status, name, run_at) instead of (status, run_at).
 *
 * A claim asks for the first due jobs of its pool's names (jobs/queue.ts). With
 * (status, run_at), SQLite walked the due jobs in time order and filtered them by name,
 * so a claim of the shared pool behind a backlog of other jobs (a 100,000-member bulk
 * mailing queues 100,000 `messaging.deliver` jobs) read every one of them before finding
 * its own, and a bulk mailing's cost per email grew with its size. With the name in the
 * index each claim reads only its own names' due jobs. The old index is
 * dropped, as SQLite's planner would otherwise keep choosing it to skip the sort.
 */
export function jobsClaimIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('jobs_status_name_run_at_idx').on('jobs').columns(['status', 'name', 'run_at']).execute();
      await db.schema.dropIndex('jobs_status_run_at_idx').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('jobs_status_run_at_idx').on('jobs').columns(['status', 'run_at']).execute();
      await db.schema.dropIndex('jobs_status_name_run_at_idx').execute();
    },
  };
}
