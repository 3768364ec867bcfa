import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { DbHandle } from '../db/create-db.js';
import { groupWriteOf } from '../db/group-write.js';
import type { Database, JobsTable } from '../db/types.js';
import type { JobMap, JobName } from './job-map.js';
import {
  claimQueries,
  insertJob,
  renewClaimedJob,
  updateClaimedJob,
  type ClaimedValues,
  type ClaimKind,
  type JobRow,
} from './queue-statements.js';

/**
 * The durable job queue: jobs live in the `jobs` table, so they survive restarts and
 * are shared by every worker process on the database. Delivery is at least once: a job
 * whose worker dies is claimed again once its lease expires, so handlers must be
 * idempotent. A lease also runs out under a worker that is only slow (starved, or its
 * clock behind), which may still be running the job when another claim takes it over: a
 * handler whose outside effect must not happen twice fences it (a delivery's send mark,
 * modules/messaging/send-marks.ts). The claim/finish methods are used by JobRunner
 * (their statements: queue-statements.ts); services only enqueue and read.
 */

export type JobStatus = JobsTable['status'];
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'done', 'failed'];

export interface JobRecord<P = unknown> {
  readonly id: number;
  readonly name: string;
  readonly payload: P;
  readonly status: JobStatus;
  readonly idempotencyKey: string | null;
  /** How many times the job has been claimed, including the current run. */
  readonly attempts: number;
  /** Not before this instant (ms since the epoch). */
  readonly runAt: number;
  readonly lockedBy: string | null;
  readonly lockedUntil: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
}

export interface EnqueueOptions {
  /** When the job may run first (ms since the epoch); now by default. */
  readonly runAt?: number;
  /** A second enqueue with the same name and key returns the first job instead. */
  readonly idempotencyKey?: string;
  /**
   * A transaction to enqueue in, so the job commits (or not) with the caller's writes.
   * The local runner is woken at once all the same; if it looks before the commit, it
   * finds the job at its next poll.
   */
  readonly executor?: Kysely<Database>;
}

export interface EnqueueResult<P> {
  readonly job: JobRecord<P>;
  /** False when the idempotency key matched an existing job, which is returned. */
  readonly created: boolean;
}

export interface ClaimRequest {
  readonly workerId: string;
  /** Only jobs with these names are claimed (the ones the worker has handlers for). */
  readonly names: readonly string[];
  readonly limit: number;
  readonly leaseMs: number;
  /**
   * Whether to take over jobs whose lease expired (default true). A runner asks once per
   * poll interval rather than at every claim: a lease is seconds long, and the look costs
   * a statement that almost always finds nothing.
   */
  readonly reclaim?: boolean;
}

/** A claimed job. Its payload stays JSON until the runner parses it, so that one bad row fails alone. */
export interface ClaimedJob extends Omit<JobRecord, 'payload'> {
  readonly payloadJson: string;
}

/** Identifies one claim of a job: a later claim (after a lease expiry) supersedes it. */
export interface JobClaim {
  readonly id: number;
  readonly attempts: number;
  readonly workerId: string;
}

export type JobCounts = Record<JobStatus, number>;

type EnqueueListener = (name: string, runAt: number) => void;

/** Rows per insert of enqueueMany: 12 parameters each, well inside SQLite's and PostgreSQL's limits. */
const ENQUEUE_MANY_CHUNK = 1_000;

export class JobQueue<M extends object = JobMap> {
  private readonly handle: DbHandle;
  private readonly clock: Clock;
  private readonly listeners = new Set<EnqueueListener>();

  constructor(deps: { db: DbHandle; clock: Clock }) {
    this.handle = deps.db;
    this.clock = deps.clock;
  }

  async enqueue<N extends JobName<M>>(name: N, payload: M[N], options: EnqueueOptions = {}): Promise<EnqueueResult<M[N]>> {
    const db = options.executor ?? this.handle.db;
    const now = this.clock.now();
    const runAt = options.runAt ?? now;
    const key = options.idempotencyKey ?? null;
    const [inserted] = (await insertJob.run(db, queuedRow(name, payload, runAt, key, now))).rows;
    if (inserted) {
      for (const listener of this.listeners) listener(name, runAt);
      return { job: toRecord(inserted) as JobRecord<M[N]>, created: true };
    }
    if (key === null) throw new Error(`Job ${name} was not inserted although it has no idempotency key`);
    const existing = await db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', name)
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    return { job: toRecord(existing) as JobRecord<M[N]>, created: false };
  }

  /**
   * enqueue for many jobs of one name, in multi-row inserts (a page of bulk messages'
   * deliveries): a job whose key is queued already is skipped, as enqueue skips it.
   * Resolves with how many were created.
   */
  async enqueueMany<N extends JobName<M>>(
    name: N,
    jobs: ReadonlyArray<{ readonly payload: M[N]; readonly runAt?: number; readonly idempotencyKey?: string }>,
    options: { readonly executor?: Kysely<Database> } = {},
  ): Promise<number> {
    const db = options.executor ?? this.handle.db;
    const now = this.clock.now();
    let created = 0;
    let earliest = Infinity;
    for (let from = 0; from < jobs.length; from += ENQUEUE_MANY_CHUNK) {
      const rows = jobs.slice(from, from + ENQUEUE_MANY_CHUNK).map((job) => {
        const runAt = job.runAt ?? now;
        earliest = Math.min(earliest, runAt);
        return queuedRow(name, job.payload, runAt, job.idempotencyKey ?? null, now);
      });
      const inserted = await db
        .insertInto('jobs')
        .values(rows)
        .onConflict((oc) => oc.columns(['name', 'idempotency_key']).doNothing())
        .returning('id')
        .execute();
      created += inserted.length;
    }
    if (created > 0) for (const listener of this.listeners) listener(name, earliest);
    return created;
  }

  async get(id: number): Promise<JobRecord | undefined> {
    const row = await this.handle.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Queue depth by state, for metrics; every state is present. */
  async countByState(): Promise<JobCounts> {
    const rows = await this.handle.db
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll().as('count')])
      .groupBy('status')
      .execute();
    const counts: JobCounts = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  /** Calls `listener` after each job this instance inserts; returns the unsubscribe. */
  onEnqueued(listener: EnqueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells this instance's listeners of jobs another instance inserted, as if it had: the
   * job thread's queue hears so of the jobs the HTTP thread enqueued (process/job-thread.ts).
   */
  announce(name: string, runAt: number): void {
    for (const listener of this.listeners) listener(name, runAt);
  }

  /**
   * Claims up to `limit` due jobs: running jobs whose lease expired (their worker died)
   * first, then queued jobs whose run_at has come, oldest first. Each claim counts as an
   * attempt. A reclaimed job records why in last_error, which becomes its final error
   * if it has no attempts left.
   *
   * Two statements rather than one with an OR: each walks the (status, name, run_at)
   * index and stops at its limit, while the OR of both made SQLite gather every due job
   * and sort them, so that a backlog of thousands cost milliseconds per claim. The name
   * is in the index so that a claim reads only its own names' due jobs, never a backlog
   * of other jobs (migration 0033); a pool of one name reads them in order, a pool of
   * several sorts its own due jobs.
   */
  async claim(request: ClaimRequest): Promise<ClaimedJob[]> {
    if (request.names.length === 0 || request.limit < 1) return [];
    const now = this.clock.now();
    const reclaimed = request.reclaim === false ? [] : await this.claimWhere(request, now, 'expired', request.limit);
    const due = reclaimed.length < request.limit ? await this.claimWhere(request, now, 'due', request.limit - reclaimed.length) : [];
    return [...reclaimed, ...due]
      .map((row) => ({ ...toFields(row), payloadJson: row.payload }))
      .sort((a, b) => a.runAt - b.runAt || a.id - b.id);
  }

  private claimWhere(request: ClaimRequest, now: number, kind: ClaimKind, limit: number): Promise<JobRow[]> {
    const query = claimQueries.of(`${kind}:${limit}:${request.names.length}:${this.handle.dialect}`);
    return query.execute(this.handle.db, request.workerId, now + request.leaseMs, now, ...request.names);
  }

  /**
   * Extends the lease of a running job to at least `leaseMs` from now; false when the claim
   * is no longer this worker's (another claim took the job over, or it finished), and then
   * nothing changes. With `executor`, in the caller's transaction: a handler proves that it
   * still holds its job in the same commit as the step that must not run without it
   * (a delivery's send mark, modules/messaging/send-marks.ts).
   */
  async renewLease(claim: JobClaim, leaseMs: number, options: { readonly executor?: Kysely<Database> } = {}): Promise<boolean> {
    const now = this.clock.now();
    const renew = async (db: Kysely<Database>) => {
      const result = await renewClaimedJob.run(db, now + leaseMs, now, claim.id, claim.attempts, claim.workerId);
      return (result.numAffectedRows ?? 0n) > 0n;
    };
    if (options.executor) return renew(options.executor);
    // Shared with the other writes of the moment, not awaited to disk, as updateClaimed says.
    return groupWriteOf(this.handle).run(renew, { durable: false });
  }

  async complete(claim: JobClaim): Promise<boolean> {
    const now = this.clock.now();
    return this.updateClaimed(claim, {
      status: 'done',
      locked_by: null,
      locked_until: null,
      updated_at: now,
      finished_at: now,
    });
  }

  /** Puts a failed job back in the queue, to run again at `runAt`. */
  async retry(claim: JobClaim, error: string, runAt: number): Promise<boolean> {
    return this.updateClaimed(claim, {
      status: 'queued',
      run_at: runAt,
      last_error: error,
      locked_by: null,
      locked_until: null,
      updated_at: this.clock.now(),
    });
  }

  /**
   * Fails a job for good, keeping `error`. `attempts` corrects the count when the
   * current claim never ran the handler (a reclaim past the attempt limit).
   */
  async fail(claim: JobClaim, error: string, attempts: number = claim.attempts): Promise<boolean> {
    const now = this.clock.now();
    return this.updateClaimed(claim, {
      status: 'failed',
      attempts,
      last_error: error,
      locked_by: null,
      locked_until: null,
      updated_at: now,
      finished_at: now,
    });
  }

  /**
   * Every change to a claimed job is conditional on the claim still being current, so a
   * worker that lost its lease cannot overwrite the state another worker now owns.
   */
  private async updateClaimed(claim: JobClaim, values: ClaimedValues): Promise<boolean> {
    // In the transactions shared with the other writes of the moment (delivery outcomes, new
    // messages: db/group-write.ts), not awaited to disk: an outcome lost with the machine
    // only runs the job again, which handlers must bear anyway.
    const result = await groupWriteOf(this.handle).run(
      (trx) => updateClaimedJob.run(trx, values, claim.id, 'running', claim.attempts, claim.workerId),
      { durable: false },
    );
    return (result.numAffectedRows ?? 0n) > 0n;
  }
}

/** A new job's row, queued for `runAt`. */
function queuedRow(name: string, payload: unknown, runAt: number, key: string | null, now: number) {
  return {
    name,
    payload: JSON.stringify(payload),
    status: 'queued' as const,
    idempotency_key: key,
    attempts: 0,
    run_at: runAt,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
}

function toRecord(row: JobRow): JobRecord {
  return { ...toFields(row), payload: JSON.parse(row.payload) as unknown };
}

function toFields(row: JobRow): Omit<JobRecord, 'payload'> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    idempotencyKey: row.idempotency_key,
    attempts: row.attempts,
    runAt: row.run_at,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
