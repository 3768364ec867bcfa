import type { JobMap } from './job-map.js';
import type { HandlerOptions, JobHandler } from './runner.js';

/** One job's handler and its options, as the module that owns the job returns them. */
export interface JobRegistration<N extends keyof JobMap> {
  readonly handler: JobHandler<JobMap[N]>;
  readonly options?: HandlerOptions<JobMap[N]>;
}

/**
 * Every job's handler: each module returns those of its jobs, the composition root joins
 * them (a job of src/jobs/job-map.ts without a handler fails to compile there), and the
 * process's job runner registers them all (src/process/job-runner.ts).
 */
export type JobHandlers = { readonly [N in keyof JobMap]: JobRegistration<N> };
