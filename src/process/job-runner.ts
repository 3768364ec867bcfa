import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/create-db.js';
import { JobRunner } from '../jobs/runner.js';
import { createServices, type Services } from '../services.js';
import type { Logger } from './logger.js';

/** `tracking.deliver` jobs one worker process runs at once, beside the shared slots. */
export const TRACKING_DELIVER_CONCURRENCY = 32;

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
    leaseMs: deps.config.jobLeaseMs,
    logger: deps.log.child({ component: 'jobs' }),
    // An admin change made before a job was enqueued is seen by the job (docs/settings-caches.md).
    afterClaim: () => deps.services.settings.refresh(),
  });
  // Tracking's outbox: a stored event for one subscriber; an unknown subscriber fails the job.
  // Slots of their own: the subscribers batch what the jobs running at once hand them (the
  // chain starts of custom events share one transaction: chains/event-starts.ts), so a
  // burst of events runs wide rather than four at a time.
  runner.register('tracking.deliver', (payload) => deps.services.tracking.deliver(payload), { concurrency: TRACKING_DELIVER_CONCURRENCY });
  // Product pictures after an import landed; resumable, so a retry skips finished pictures.
  runner.register('images.download', async (payload, ctx) => {
    await deps.services.images.downloadForShop(payload, ctx.signal);
  });
  // The shop's feed URL, fetched and imported; each run schedules the next (one chain per shop).
  // A redelivered run (its worker was killed) imports again what the dead run left unfinished.
  runner.register('catalog.fetch', (payload, ctx) =>
    deps.services.catalog.runScheduledFetch(payload, { signal: ctx.signal, attempt: ctx.attempt }),
  );
  // An audience import, from its cursor: each chunk commits with the cursor, so a retry resumes.
  runner.register(
    'audience.import',
    (payload, ctx) =>
      deps.services.audience.runImport(payload, { signal: ctx.signal, finalAttempt: ctx.attempt >= ctx.maxAttempts }),
    // A worker killed during the last attempt: the import's log must still say it failed.
    { onGiveUp: (payload, error) => deps.services.audience.recordGaveUp(payload, error) },
  );
  // The loyalty ledger's upkeep: confirms and expires lots, then schedules the shop's next link.
  // Its writes are conditional, so a redelivered link sweeps again and finishes the work.
  runner.register('loyalty.sweep', (payload, ctx) => deps.services.loyaltyUpkeep.runLink(payload, { signal: ctx.signal }));
  // Loyalty levels whose expiry is due, recomputed daily per shop; each run schedules the next (one chain per shop).
  runner.register('loyalty.levels', (payload) => deps.services.loyaltyLevels.runLevelsJob(payload));
  // One delivery of a message: its own retries are new jobs (delivery.service.ts); a throw
  // (a database fault) is retried by the runner, and the delivery's status makes a rerun harmless.
  // Slots of their own (PATRON_DELIVERY_CONCURRENCY): a send mostly waits on the vendor's round trip.
  runner.register('messaging.deliver', (payload, ctx) => deps.services.messageDelivery.deliver(payload, { signal: ctx.signal }), {
    concurrency: deps.config.deliveryConcurrency,
  });
  // One signed webhook delivery: its retries are new jobs (webhooks.delivery.ts); a throw (a database
  // fault) is retried by the runner, and the delivery's status makes a rerun harmless.
  runner.register('webhooks.deliver', (payload, ctx) => deps.services.webhookDelivery.deliver(payload, { signal: ctx.signal }));
  // A chain run's due steps: each step moves the run conditionally in the transaction of what
  // it writes, so a redelivered job finds the step done and goes on from where the run is.
  runner.register('chains.step', (payload) => deps.services.chainSteps.run(payload));
  // The trigger detectors' jobs (docs/chains.md, "Triggers"): keyed starts, so a rerun starts nothing twice.
  runner.register('chains.abandoned_check', (payload) => deps.services.chainTriggers.checkAbandoned(payload));
  runner.register('chains.product_alerts', (payload) => deps.services.chainTriggers.handProductAlerts(payload));
  runner.register('chains.segment_entries', (payload) => deps.services.chainTriggers.handSegmentEntries(payload));
  // Bulk mailings: a page of members per run, committed with its cursor and the next page's job;
  // a page run twice writes once (its advance is conditional on the page count).
  runner.register('bulk.expand', (payload) => deps.services.bulkExpansion.runPage(payload));
  runner.register('bulk.decide', (payload) => deps.services.bulkMailings.decide(payload));
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
