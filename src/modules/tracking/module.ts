import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Late } from '../../late.js';
import type { DashboardRollups } from '../dashboards/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { CustomerHistoryService } from './customer-history.service.js';
import { TrackingService } from './tracking.service.js';
import type { TrackedBatchListener, TrackingSubscriber, ViewAttributionSource } from './tracking.types.js';

/** `tracking.deliver` jobs one worker process runs at once, beside the shared slots. */
export const TRACKING_DELIVER_CONCURRENCY = 32;

export interface TrackingServices {
  /** Sessions, events (group-committed), carts, wish lists, orders, product counters. */
  readonly tracking: TrackingService;
  /** A customer's events and orders a page at a time (the admin UI). */
  readonly customerHistory: CustomerHistoryService;
}

export interface TrackingModule {
  readonly services: TrackingServices;
  readonly jobs: Pick<JobHandlers, 'tracking.deliver'>;
  readonly mergeParticipants: readonly MergeParticipant[];
}

export function createTrackingModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  readonly settings: { refresh(): Promise<void> };
  /** The modules that hear tracking's events, all built after it (src/services.ts binds them in order). */
  readonly trackingSubscribers: Late<readonly TrackingSubscriber[]>;
  /** The dashboards' rollups, kept in each batch's transaction. */
  readonly rollups?: DashboardRollups;
  /** The modules that keep figures of each batch in its transaction, built after it. */
  readonly batchListeners?: Late<readonly TrackedBatchListener[]>;
  /** The modules that may attribute a product view naming no recommended_by, built after it. */
  readonly viewAttributions?: Late<readonly ViewAttributionSource[]>;
}): TrackingModule {
  const tracking = new TrackingService({ ...deps, subscribers: deps.trackingSubscribers });
  return {
    services: { tracking, customerHistory: new CustomerHistoryService(deps) },
    jobs: {
      // Tracking's outbox: a stored event for one subscriber; an unknown subscriber fails the job.
      // Slots of their own: the subscribers batch what the jobs running at once hand them (the
      // chain starts of custom events share one transaction: chains/event-starts.ts), so a
      // burst of events runs wide rather than four at a time.
      'tracking.deliver': { handler: (payload) => tracking.deliver(payload), options: { concurrency: TRACKING_DELIVER_CONCURRENCY } },
    },
    mergeParticipants: [tracking.mergeParticipant()],
  };
}
