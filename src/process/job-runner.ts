import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/create-db.js';
import type { JobRegistration } from '../jobs/job-handlers.js';
import type { JobMap } from '../jobs/job-map.js';
import { JobRunner } from '../jobs/runner.js';
import { createServices, type Services } from '../services.js';
import type { Logger } from './logger.js';

/**
 * The process's job runner over the services' queue (so that an enqueue in this process
 * wakes it at once), with every job's handler as the modules returned it
 * (`services.jobHandlers`: each module's module.ts says what its jobs do).
 */
export function createJobRunner(deps: {
  readonly config: Config;
  readonly services: Services;
  readonly clock: Clock;
  readonly log: Logger;
}): JobRunner {
  const runner = new JobRunner({
    queue: deps.services.jobs,
    clock: deps.clock,
    concurrency: deps.config.workerConcurrency,
    leaseMs: deps.config.jobLeaseMs,
    logger: deps.log.child({ component: 'jobs' }),
    // An admin change made before a job was enqueued is seen by the job (docs/settings-caches.md).
    afterClaim: () => deps.services.settings.refresh(),
  });
  const handlers = Object.entries(deps.services.jobHandlers) as [keyof JobMap, JobRegistration<keyof JobMap>][];
  for (const [name, { handler, options }] of handlers) runner.register(name, handler, options);
  return runner;
}

/**
 * The services over `db` and the process's job runner over them, started: what a
 * `patron worker` process and the job thread of `patron serve` run. The caller then
 * resumes the chains a failed job left stopped (`services.loyaltyUpkeep.resumeChains()`),
 * once it holds the runner for its shutdown.
 */
export async function startJobRunner(deps: {
  readonly config: Config;
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly log: Logger;
}): Promise<{ services: Services; runner: JobRunner }> {
  const services = createServices({ config: deps.config, db: deps.db, clock: deps.clock });
  // Before the first job: outcome hooks answer from the webhook topics in memory (app.ts says why).
  await services.webhooks.topics.warmUp();
  const runner = createJobRunner({ config: deps.config, services, clock: deps.clock, log: deps.log });
  runner.start();
  return { services, runner };
}
