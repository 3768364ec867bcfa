import { sql, type Insertable, type Selectable } from 'kysely';
import { lockSkippingLocked, type Dialect } from '../db/dialect.js';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../db/prepared-query.js';
import type { JobsTable } from '../db/types.js';
import type { JobStatus } from './queue.js';

/** The statements of the job queue (queue.ts), compiled once per shape (db/prepared-query.ts). */

export type JobRow = Selectable<JobsTable>;
export type ClaimedValues = Partial<Omit<JobRow, 'id' | 'name' | 'payload' | 'created_at'>>;

// Compiled once per shape (db/prepared-query.ts): a job is enqueued and its outcome recorded once per message sent.
export const insertJob = new PreparedRowQuery(0, (db, row: Insertable<JobsTable>) =>
  db
    .insertInto('jobs')
    .values(row)
    // Dedup by the unique index, never check-then-write: concurrent enqueues with one
    // key insert one row.
    .onConflict((oc) => oc.columns(['name', 'idempotency_key']).doNothing())
    .returningAll(),
);
export const updateClaimedJob = new PreparedRowQuery(
  4,
  (db, values: ClaimedValues, id: number, status: string, attempts: number, workerId: string) =>
    db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', status as JobStatus)
      .where('attempts', '=', attempts)
      .where('locked_by', '=', workerId),
);

/**
 * A lease renewal: conditional on the claim, like every change to a claimed job, and
 * monotonic: it never moves the lease's end back. A renewal may land after a later one (on
 * PostgreSQL each runs in a transaction of its own, side by side), or come from a worker
 * whose clock is behind the one that set the end; either would otherwise shorten the lease
 * and let another worker take over a job that is still running.
 */
export const renewClaimedJob = new PreparedQuery(
  5,
  (db, lockedUntil: number, now: number, id: number, attempts: number, workerId: string) =>
    db
      .updateTable('jobs')
      .set((eb) => ({
        locked_until: eb.case().when('locked_until', '<', lockedUntil).then(lockedUntil).else(eb.ref('locked_until')).end(),
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('status', '=', sql.lit('running'))
      .where('attempts', '=', attempts)
      .where('locked_by', '=', workerId),
);

export type ClaimKind = 'expired' | 'due';

/**
 * The claim statements, compiled once per (kind, limit, number of names, dialect): a busy
 * runner claims several times a second, and building the statement with Kysely each time
 * cost more JavaScript than running it. Arguments: worker id, lease end, now, the names.
 */
export const claimQueries = new PreparedQueryFamily((shape: string) => {
  const [kind, limitText, namesText, dialect] = shape.split(':') as [ClaimKind, string, string, Dialect];
  const limit = Number(limitText);
  return new PreparedQuery(3 + Number(namesText), (db, workerId: unknown, lockedUntil: unknown, now: unknown, ...names: unknown[]) =>
    db
      .updateTable('jobs')
      .set((eb) => ({
        status: sql.lit('running'),
        attempts: eb('attempts', '+', sql.lit(1)),
        locked_by: workerId as string,
        locked_until: lockedUntil as number,
        updated_at: now as number,
        // The right-hand side sees the row before this update: status and locked_by
        // are those of the worker that lost the job.
        last_error: eb
          .case()
          .when('status', '=', sql.lit('running'))
          .then(
            sql<string>`'Lease expired: worker ' || coalesce(locked_by, '?')
              || ' stopped during attempt ' || cast(attempts as text)`,
          )
          .else(eb.ref('last_error'))
          .end(),
      }))
      .where('id', 'in', (eb) => {
        const candidates = eb
          .selectFrom('jobs')
          .select('id')
          .where('name', 'in', names as string[]);
        // The status and the limit are written into the SQL, not bound: bound, SQLite's
        // plan walks every queued job of the index before taking the first, so that a
        // claim costs more the longer the backlog is.
        const ordered =
          kind === 'due'
            ? candidates
                .where('status', '=', sql.lit('queued'))
                .where('run_at', '<=', now as number)
                .orderBy('run_at')
                .orderBy('id')
            : candidates
                .where('status', '=', sql.lit('running'))
                .where('locked_until', '<=', now as number)
                .orderBy('id');
        return lockSkippingLocked(ordered.limit(sql.lit(limit)), dialect);
      })
      .returningAll(),
  );
});
