import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { JobQueue } from '../jobs/queue.js';
import { startWorker } from '../worker-thread.js';
import type { Logger } from './logger.js';
import type { PriorityOutcome } from './thread-priority.js';

/**
 * `patron serve`'s job runner, in a thread of its own.
 *
 * The jobs (a message's delivery above all: claiming it, rendering, composing and sending
 * the email, writing what became of it) used to share the event loop with the requests,
 * so that every delivery batch stood in the way of the /transact answers waiting behind
 * it: under a steady stream of messages the loop was nearly always busy, and the answers'
 * tail was the delivery batches'. In a worker thread the jobs run on another core, with
 * their own database connection, services and caches, exactly as a `patron worker`
 * process would (process/job-thread-entry.ts): every job is claimed from the jobs table
 * under a lease, so the thread needs nothing from this one but to hear of new jobs at once.
 *
 * - Jobs this thread enqueues are announced to the job thread's queue (batched per
 *   event-loop turn), which wakes its runner as an enqueue in its own thread would.
 * - On SQLite both connections write to one file: neither blocks its thread waiting for
 *   the other's write lock (db/sqlite/write-lock.ts). This thread's connection runs the WAL
 *   checkpoints; the job thread's does not.
 * - stop() stops the runner (it finishes or gives back its running jobs) and closes the
 *   thread's connection before the process closes its own.
 * - A thread that dies of an uncaught error ends the process, as an uncaught error of
 *   the HTTP thread does (`onFailure`: a graceful shutdown exiting 1, for a supervisor to
 *   restart it; the jobs the thread held come back when their leases expire). Starting
 *   a new thread instead could leave the write lock waiting for a turn the dead thread
 *   had asked for and will never take.
 */

export type ToJobThread =
  | { readonly type: 'enqueued'; readonly jobs: readonly (readonly [string, number])[] }
  | { readonly type: 'stop'; readonly timeoutMs: number };

export type FromJobThread =
  /** `priority`: what became of PATRON_JOB_THREAD_NICE in the thread. */
  | { readonly type: 'ready'; readonly workerId: string; readonly priority: PriorityOutcome }
  | { readonly type: 'stopped'; readonly unfinished: number }
  | { readonly type: 'failed'; readonly message: string };

export interface JobThreadDeps {
  readonly config: Config;
  /** The HTTP thread's queue: the jobs it enqueues are announced to the thread. */
  readonly queue: JobQueue;
  /** SQLite: the HTTP thread's connection's write lock (DbHandle.writeLock). */
  readonly writeLock: SharedArrayBuffer | undefined;
  readonly log: Logger;
  /** Called once when the thread ends other than through stop(). */
  readonly onFailure: () => void;
}

export interface JobThreadData {
  readonly config: Config;
  /** SQLite: the HTTP thread's write lock, shared (db/sqlite/write-lock.ts). */
  readonly writeLock: SharedArrayBuffer | undefined;
}

/** How long stop() waits beyond the runner's own timeout before it ends the thread. */
const STOP_GRACE_MS = 5_000;

function createWorker(workerData: JobThreadData): Worker {
  return startWorker(import.meta.url, './job-thread-entry', { workerData });
}

export class JobThread {
  private worker: Worker | undefined;
  private stopping = false;
  private pending: [string, number][] = [];
  private flushScheduled = false;
  private readonly unsubscribe: () => void;

  private constructor(private readonly deps: JobThreadDeps) {
    this.unsubscribe = deps.queue.onEnqueued((name, runAt) => this.announce(name, runAt));
  }

  /** Starts the thread; resolves once its runner runs, rejects when it could not start. */
  static async start(deps: JobThreadDeps): Promise<JobThread> {
    const thread = new JobThread(deps);
    try {
      await thread.spawn();
    } catch (error) {
      thread.unsubscribe();
      throw error;
    }
    return thread;
  }

  /** Stops the runner in the thread and waits for the thread to end. */
  async stop(options: { timeoutMs?: number } = {}): Promise<{ unfinished: number }> {
    this.stopping = true;
    this.unsubscribe();
    const worker = this.worker;
    if (!worker) return { unfinished: 0 };
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve) => {
      let unfinished = 0;
      const kill = setTimeout(() => void worker.terminate(), timeoutMs + STOP_GRACE_MS);
      worker.on('message', (message: FromJobThread) => {
        if (message.type !== 'stopped') return;
        unfinished = message.unfinished;
        // Its database is closed; what else it holds open (an idle SMTP pool's sockets,
        // say) would keep the thread alive until the grace ran out.
        void worker.terminate();
      });
      worker.once('exit', () => {
        clearTimeout(kill);
        resolve({ unfinished });
      });
      this.post(worker, { type: 'stop', timeoutMs });
    });
  }

  private spawn(): Promise<void> {
    const worker = createWorker({ config: this.deps.config, writeLock: this.deps.writeLock });
    this.worker = worker;
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromJobThread) => {
        if (message.type === 'ready') {
          ready = true;
          const { priority } = message;
          this.deps.log.info(
            {
              workerId: message.workerId,
              ...(priority.applied ? { nice: priority.nice } : { nice: null, niceNotApplied: priority.reason }),
            },
            'Job thread started',
          );
          resolve();
        } else if (message.type === 'failed' && !ready) {
          reject(new Error(`The job thread could not start: ${message.message}`));
        }
      });
      worker.on('error', (error) => {
        this.deps.log.error({ err: error }, 'The job thread failed');
        if (!ready) reject(error);
      });
      worker.on('exit', (code) => {
        if (this.worker === worker) this.worker = undefined;
        if (!ready) {
          reject(new Error(`The job thread exited with code ${code} before it started`));
          return;
        }
        if (this.stopping) return;
        this.deps.log.fatal({ code }, 'The job thread ended');
        this.deps.onFailure();
      });
    });
  }

  private announce(name: string, runAt: number): void {
    this.pending.push([name, runAt]);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const jobs = this.pending;
      this.pending = [];
      if (this.worker && jobs.length > 0) this.post(this.worker, { type: 'enqueued', jobs: collapse(jobs) });
    });
  }

  private post(worker: Worker, message: ToJobThread): void {
    worker.postMessage(message);
  }
}

/** One entry per job name, with its earliest run time: the runner wakes per pool, not per job. */
function collapse(jobs: readonly [string, number][]): [string, number][] {
  const earliest = new Map<string, number>();
  for (const [name, runAt] of jobs) earliest.set(name, Math.min(runAt, earliest.get(name) ?? Infinity));
  return [...earliest];
}
