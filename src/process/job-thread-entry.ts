import { parentPort, workerData } from 'node:worker_threads';
import { processClock } from '../clock.js';
import { createDb, dbOptionsFromConfig, type DbOptions } from '../db/create-db.js';
import { startJobRunner } from './job-runner.js';
import type { FromJobThread, JobThreadData, ToJobThread } from './job-thread.js';
import { createLogger } from './logger.js';
import { lowerThreadPriority } from './thread-priority.js';

/**
 * The job thread of `patron serve` (process/job-thread.ts says why): the services over a
 * database connection of its own, and the process's job runner over them, as in
 * `patron worker`. The HTTP thread has migrated the database before it starts this one.
 */

if (!parentPort) throw new Error('job-thread-entry runs in a worker thread');
const port = parentPort;
const { config, writeLock } = workerData as JobThreadData;
const log = createLogger(config.logLevel).child({ thread: 'jobs' });
const send = (message: FromJobThread): void => port.postMessage(message);

async function main(): Promise<void> {
  // Opt-in (PATRON_JOB_THREAD_NICE, 0 by default): requests come first when every core is busy.
  // Not the default: on SQLite a lowered thread that other programs keep off the cores
  // holds the write lock meanwhile, and every request's write waits with it
  // (docs/messaging.md, "The job thread's priority").
  const priority = lowerThreadPriority(config.jobThreadNice);
  const options = dbOptionsFromConfig(config);
  // The HTTP thread's connection runs the SQLite checkpoints.
  const dbOptions: DbOptions = options.kind === 'sqlite' ? { ...options, checkpoints: false, ...(writeLock && { writeLock }) } : options;
  const db = createDb(dbOptions);
  let stopping = false;
  try {
    const { services, runner } = await startJobRunner({ config, db, clock: processClock(config.testClockFile), log });
    port.on('message', (message: ToJobThread) => {
      if (message.type === 'enqueued') {
        for (const [name, runAt] of message.jobs) services.jobs.announce(name, runAt);
      } else if (message.type === 'stop' && !stopping) {
        stopping = true;
        void (async () => {
          const { unfinished } = await runner.stop({ timeoutMs: message.timeoutMs });
          await db.destroy().catch((error: unknown) => log.error({ err: error }, 'Closing the job thread database failed'));
          send({ type: 'stopped', unfinished });
          port.close();
        })();
      }
    });
    // Chains a failed job or an older version left stopped (docs/loyalty.md, "Upkeep").
    await services.loyaltyUpkeep.resumeChains();
    // The audit log's daily retention run (docs/audit-log.md, "Retention"): one job a day, whichever process queues it.
    await services.audit.schedulePrune();
    // Each shop's daily rebuild of its recommendation models (docs/recommendations.md, "Models"): one link per shop and day.
    await services.recommendationModels.scheduleRebuilds();
    send({ type: 'ready', workerId: runner.workerId, priority });
  } catch (error) {
    await db.destroy().catch(() => undefined);
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    port.close();
  }
}

void main();
