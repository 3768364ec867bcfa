import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { JobRunner } from '../jobs/runner.js';
import type { Services } from '../services.js';
import type { Logger } from './logger.js';

/**
 * The process's job runner over the services' queue (so that an enqueue in this process
 * wakes it at once). Every job's handler is registered here, in one explicit list: a
 * module that adds a job to src/jobs/job-map.ts registers its handler below, calling
 * its own service.
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
    logger: deps.log.child({ component: 'jobs' }),
  });
  // Tracking's outbox: a stored event for one subscriber; an unknown subscriber fails the job.
  runner.register('tracking.deliver', (payload) => deps.services.tracking.deliver(payload));
  return runner;
}
