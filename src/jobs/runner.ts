import { redactCredentials } from '../observability/redact-credentials.js';
import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import { backoffPolicyProblem, retryDelayMs } from './backoff.js';
import type { JobMap, JobName } from './job-map.js';
import type { ClaimedJob, JobClaim, JobQueue } from './queue.js';

export interface JobContext {
  readonly jobId: number;
  readonly name: string;
  /** 1 on the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly workerId: string;
  /**
   * Aborted when this run should give up: its lease went to another worker, or stop()
   * timed out. Long handlers pass it on to fetches and check it between steps.
   */
  readonly signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

export interface HandlerOptions<P = unknown> {
  /** Runs in all, the first included (default 5). */
  readonly maxAttempts?: number;
  /** Delay before the first retry; it doubles for every further retry (default 10 s). */
  readonly backoffMs?: number;
  /** The longest delay between retries (default 1 h). */
  readonly maxBackoffMs?: number;
  /**
   * Called when the job fails for good without its handler having run for the last time:
   * its worker died during the final attempt and the lease expired. A handler that keeps
   * state of its own (an import's log) records the failure here.
   */
  readonly onGiveUp?: (payload: P, error: string) => Promise<void>;
  /**
   * Slots of this job's own: at most this many of it run at once, apart from the
   * runner's shared `concurrency`, so that a burst of it (message deliveries, which wait
   * on a vendor's network round trip) runs wide without taking the other jobs' slots.
   * Unset: the job shares the runner's slots.
   */
  readonly concurrency?: number;
}

/** The subset of a pino logger the runner uses. */
export interface RunnerLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobRunnerOptions<M extends object> {
  readonly queue: JobQueue<M>;
  readonly clock: Clock;
  /** Jobs this runner runs at once (default 4). */
  readonly concurrency?: number;
  /** Stored in locked_by; unique per runner (default host/pid/random). */
  readonly workerId?: string;
  /** How often an idle runner looks for due jobs (default 1 s). */
  readonly pollIntervalMs?: number;
  /**
   * How long a claim holds a job before another worker may take it (default
   * DEFAULT_LEASE_MS). Short, because it is how long the job of a killed worker waits;
   * heartbeats keep a healthy job's claim, however long it runs.
   */
  readonly leaseMs?: number;
  /** How often a running job's lease is renewed (default a quarter of leaseMs). */
  readonly heartbeatMs?: number;
  /** How long stop() waits for running jobs (default 10 s). */
  readonly stopTimeoutMs?: number;
  readonly logger?: RunnerLogger;
  /**
   * Called after each claim that took jobs, before they run: the jobs were enqueued
   * before it, so caches it brings up to date (docs/settings-caches.md) are at least as
   * new as whatever caused them.
   */
  readonly afterClaim?: () => Promise<void>;
}

interface Registration {
  readonly handler: JobHandler<unknown>;
  readonly maxAttempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly onGiveUp: ((payload: unknown, error: string) => Promise<void>) | undefined;
}

interface Running {
  readonly controller: AbortController;
  promise: Promise<void>;
}

/** Slots and the job names that share them: the runner's shared pool, or one job's own. */
interface Pool {
  readonly names: string[];
  readonly capacity: number;
  /**
   * While jobs of the pool run, it claims only once this many slots are free: one claim
   * statement for several jobs when a backlog waits, instead of one per finished job.
   */
  readonly batch: number;
  running: number;
  /** performance.now() of the last look for expired leases (ClaimRequest.reclaim). */
  reclaimedAt: number;
}

const ERROR_MESSAGE_LIMIT = 2000;

/**
 * The default lease: the job of a killed worker is taken over by another worker within
 * this (plus one poll). A heartbeat every quarter of it leaves three missed beats (an
 * event loop held up, a slow database) before a healthy job could be taken over.
 */
export const DEFAULT_LEASE_MS = 10_000;
export const HEARTBEATS_PER_LEASE = 4;

const consoleLogger: RunnerLogger = {
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/**
 * Runs the jobs of a JobQueue: claims due jobs with a lease, runs their handlers with at
 * most `concurrency` at once (a job registered with slots of its own: at most its own
 * number, beside them), renews leases while handlers run, and records the outcome
 * (done, retry with exponential backoff, or failed with the last error). Any number of
 * runners, in any number of processes, may share one database.
 */
export class JobRunner<M extends object = JobMap> {
  readonly workerId: string;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  private readonly queue: JobQueue<M>;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly stopTimeoutMs: number;
  private readonly logger: RunnerLogger;
  private readonly afterClaim: (() => Promise<void>) | undefined;
  private readonly handlers = new Map<string, Registration>();
  private readonly running = new Set<Running>();
  private readonly shared: Pool;
  private readonly pools: Pool[];
  private readonly poolOf = new Map<string, Pool>();
  /** Pools to fill at the next claim round (all of them at a poll). */
  private readonly due = new Set<Pool>();
  private started = false;
  private stopping = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  private unsubscribe: (() => void) | undefined;

  constructor(options: JobRunnerOptions<M>) {
    this.queue = options.queue;
    this.clock = options.clock;
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 4);
    this.workerId = options.workerId ?? `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString('hex')}`;
    this.pollIntervalMs = positiveInteger('pollIntervalMs', options.pollIntervalMs ?? 1000);
    this.leaseMs = positiveInteger('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS);
    this.heartbeatMs = positiveInteger('heartbeatMs', options.heartbeatMs ?? Math.max(1, Math.floor(this.leaseMs / HEARTBEATS_PER_LEASE)));
    this.stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
    this.logger = options.logger ?? consoleLogger;
    this.afterClaim = options.afterClaim;
    this.shared = newPool(this.concurrency);
    this.pools = [this.shared];
  }

  register<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>, options: HandlerOptions<M[N]> = {}): this {
    if (this.handlers.has(name)) throw new Error(`A handler for job ${name} is already registered`);
    const maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 5);
    const policy = { baseMs: options.backoffMs ?? 10_000, maxMs: options.maxBackoffMs ?? 3_600_000 };
    const problem = backoffPolicyProblem(policy);
    if (problem) throw new Error(`Job ${name}: ${problem}`);
    let pool = this.shared;
    if (options.concurrency !== undefined) {
      pool = newPool(positiveInteger('concurrency', options.concurrency));
      this.pools.push(pool);
    }
    pool.names.push(name);
    this.poolOf.set(name, pool);
    this.handlers.set(name, {
      handler: handler as JobHandler<unknown>,
      maxAttempts,
      ...policy,
      onGiveUp: options.onGiveUp as Registration['onGiveUp'],
    });
    return this;
  }

  /** Starts polling; a job enqueued through the same queue instance wakes it at once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.unsubscribe = this.queue.onEnqueued((name, runAt) => {
      const pool = this.poolOf.get(name);
      if (pool && runAt <= this.clock.now()) this.wake(pool);
    });
    this.wake();
  }

  /**
   * Stops claiming and resolves once the running jobs have finished, or after the
   * timeout: then their handlers are signalled to abort and their leases are no longer
   * renewed, so once the leases expire other workers take the jobs over.
   */
  async stop(options: { timeoutMs?: number } = {}): Promise<{ unfinished: number }> {
    if (!this.started) return { unfinished: this.running.size };
    this.stopping = true;
    clearTimeout(this.pollTimer);
    this.unsubscribe?.();
    const finished = (async () => {
      await this.claiming;
      await Promise.all([...this.running].map((run) => run.promise));
    })();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.timeoutMs ?? this.stopTimeoutMs);
    });
    await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    for (const run of this.running) run.controller.abort(new Error('The job runner stopped'));
    this.started = false;
    return { unfinished: this.running.size };
  }

  /**
   * Runs every job that is due now, batch by batch, until none is left, and returns how
   * many runs it made. For a runner that is not started (tests, one-shot commands).
   */
  async runDue(): Promise<number> {
    if (this.started) throw new Error('runDue() is for a runner that is not started');
    let runs = 0;
    for (;;) {
      const jobs = (
        await Promise.all(this.pools.map(async (pool) => [pool, await this.claim(pool, pool.capacity, true)] as const))
      ).flatMap(([pool, claimed]) => claimed.map((job) => this.launch(job, pool).promise));
      if (jobs.length === 0) return runs;
      runs += jobs.length;
      await Promise.all(jobs);
    }
  }

  /**
   * Claims as many jobs as the pool (every pool when none is named) has free slots,
   * unless a claim is already under way: then that one goes round again.
   */
  private wake(pool?: Pool): void {
    if (!this.started || this.stopping) return;
    for (const p of pool ? [pool] : this.pools) this.due.add(p);
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.fillSlots().finally(() => {
      this.claiming = undefined;
      if (this.claimAgain) {
        this.claimAgain = false;
        this.wake();
      }
    });
  }

  private async fillSlots(): Promise<void> {
    clearTimeout(this.pollTimer);
    const pools = [...this.due];
    this.due.clear();
    try {
      for (const pool of pools) await this.fillPool(pool);
    } catch (error) {
      this.logger.error({ err: error, workerId: this.workerId }, 'Could not claim jobs');
    }
    if (!this.stopping) this.pollTimer = setTimeout(() => this.wake(), this.pollIntervalMs);
  }

  private async fillPool(pool: Pool): Promise<void> {
    for (;;) {
      const free = pool.capacity - pool.running;
      if (this.stopping || pool.names.length === 0 || free < (pool.running === 0 ? 1 : pool.batch)) return;
      const now = performance.now();
      const reclaim = now - pool.reclaimedAt >= this.pollIntervalMs;
      if (reclaim) pool.reclaimedAt = now;
      const jobs = await this.claim(pool, free, reclaim);
      for (const job of jobs) this.launch(job, pool);
      if (jobs.length < free) return;
    }
  }

  private async claim(pool: Pool, limit: number, reclaim: boolean): Promise<ClaimedJob[]> {
    const jobs = await this.queue.claim({ workerId: this.workerId, names: pool.names, limit, leaseMs: this.leaseMs, reclaim });
    // The claimed jobs run whatever becomes of it: a failure only leaves caches to their expiry.
    if (jobs.length > 0) await this.afterClaim?.().catch(() => undefined);
    return jobs;
  }

  private launch(job: ClaimedJob, pool: Pool): Running {
    const run: Running = { controller: new AbortController(), promise: Promise.resolve() };
    this.running.add(run);
    pool.running += 1;
    run.promise = this.execute(job, run.controller)
      .catch((error: unknown) => {
        this.logger.error({ err: error, jobId: job.id, job: job.name }, 'Could not record the outcome of a job');
      })
      .finally(() => {
        this.running.delete(run);
        pool.running -= 1;
        this.wake(pool);
      });
    return run;
  }

  private async execute(job: ClaimedJob, controller: AbortController): Promise<void> {
    const registration = this.handlers.get(job.name);
    if (!registration) return; // claimed by name, so unreachable; the lease lets another worker take it
    const claim: JobClaim = { id: job.id, attempts: job.attempts, workerId: this.workerId };
    if (job.attempts > registration.maxAttempts) {
      // Only a reclaim after an expired lease gets here: the previous run was the last.
      const error = job.lastError ?? 'No attempts left';
      if (registration.onGiveUp) {
        await registration.onGiveUp(JSON.parse(job.payloadJson), error).catch((giveUpError: unknown) => {
          this.logger.error({ err: giveUpError, jobId: job.id, job: job.name }, 'A job could not record that it gave up');
        });
      }
      await this.record(claim, this.queue.fail(claim, error, job.attempts - 1));
      return;
    }

    const heartbeat = setInterval(() => void this.renewLease(claim, controller), this.heartbeatMs);
    controller.signal.addEventListener('abort', () => clearInterval(heartbeat));
    let failure: string | undefined;
    try {
      const payload: unknown = JSON.parse(job.payloadJson);
      await registration.handler(payload, {
        jobId: job.id,
        name: job.name,
        attempt: job.attempts,
        maxAttempts: registration.maxAttempts,
        workerId: this.workerId,
        signal: controller.signal,
      });
    } catch (error) {
      failure = errorMessage(error);
    } finally {
      clearInterval(heartbeat);
    }

    if (failure === undefined) {
      await this.record(claim, this.queue.complete(claim));
    } else if (job.attempts >= registration.maxAttempts) {
      this.logger.warn({ jobId: job.id, job: job.name, error: failure }, 'Job failed for good');
      await this.record(claim, this.queue.fail(claim, failure));
    } else {
      const delay = retryDelayMs(job.attempts, { baseMs: registration.baseMs, maxMs: registration.maxMs });
      await this.record(claim, this.queue.retry(claim, failure, this.clock.now() + delay));
    }
  }

  private async record(claim: JobClaim, update: Promise<boolean>): Promise<void> {
    if (!(await update)) {
      this.logger.warn(
        { jobId: claim.id, attempt: claim.attempts, workerId: this.workerId },
        'Job outcome not recorded: its lease had expired and another claim took over',
      );
    }
  }

  private async renewLease(claim: JobClaim, controller: AbortController): Promise<void> {
    try {
      if (!(await this.queue.renewLease(claim, this.leaseMs))) {
        controller.abort(new Error('The job lease was lost to another worker'));
      }
    } catch (error) {
      // The database may be back before the lease runs out; keep the job running.
      this.logger.error({ err: error, jobId: claim.id }, 'Could not renew a job lease');
    }
  }
}

function newPool(capacity: number): Pool {
  return { names: [], capacity, batch: Math.max(1, Math.floor(capacity / 4)), running: 0, reclaimedAt: -Infinity };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** A job's failure as stored and logged: bounded, and with no credential an error may quote. */
function errorMessage(error: unknown): string {
  const message = redactCredentials(error instanceof Error ? error.message || error.name : String(error));
  return message.length > ERROR_MESSAGE_LIMIT ? `${message.slice(0, ERROR_MESSAGE_LIMIT)}…` : message;
}
