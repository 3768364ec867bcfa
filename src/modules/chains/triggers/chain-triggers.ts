import type { Clock } from '../../../clock.js';
import type { DbHandle } from '../../../db/create-db.js';
import type { JobMap } from '../../../jobs/job-map.js';
import type { JobQueue } from '../../../jobs/queue.js';
import type { SegmentEntryListener } from '../../audience/index.js';
import type { MergeParticipant } from '../../identity/index.js';
import type { TrackingSubscriber } from '../../tracking/index.js';
import type { ChainStarter } from '../chain-starter.js';
import { AbandonedLists, type AbandonedListsDeps } from './abandoned-lists.js';
import { ActiveChainsView } from './active-chains.js';
import { ProductAlerts, type AlertSource, type AlertsListener } from './product-alerts.js';
import { SegmentEntries } from './segment-entries.js';
import { TriggerProducts, type TriggerProductsDeps } from './trigger-products.js';

/**
 * How long a detector trusts an answer that a shop has no active chain of a kind before
 * asking again (active-chains.ts): the longest a newly activated chain goes unheard.
 */
export const DEFAULT_ACTIVE_CHAINS_TTL_MS = 5_000;

export interface ChainTriggersDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: Pick<JobQueue, 'enqueue'>;
  readonly shops: TriggerProductsDeps['shops'];
  readonly identity: AbandonedListsDeps['identity'];
  readonly tracking: AbandonedListsDeps['tracking'];
  readonly products: TriggerProductsDeps['products'];
  readonly productSubscriptions: AlertSource;
  /** The chain engine (chains.service.ts), through the seam of chain-starter.ts. */
  readonly starter: ChainStarter;
  readonly activeChainsTtlMs?: number;
}

/** The trigger detectors' jobs, for the process's job runner. */
export interface ChainTriggers {
  checkAbandoned(job: JobMap['chains.abandoned_check']): Promise<void>;
  handProductAlerts(job: JobMap['chains.product_alerts']): Promise<void>;
  handSegmentEntries(job: JobMap['chains.segment_entries']): Promise<void>;
  /** Forgets which shops the detectors saw with active chains (docs/settings-caches.md). */
  forgetCachedSettings(): void;
}

/** The detectors' jobs, and what they add to the shared flows: the composition root lists it. */
export interface ChainTriggerParts {
  readonly triggers: ChainTriggers;
  /** A merged profile's watched lists are the survivor's. */
  readonly mergeParticipant: MergeParticipant;
  /** List changes and purchases: the abandoned-list watches. */
  readonly trackingSubscriber: TrackingSubscriber;
  /** The product subscriptions' landings that wrote alerts: the alerts' job. */
  readonly alertsListener: AlertsListener;
  /** Profiles entering segments: the entries' jobs. */
  readonly segmentEntryListener: SegmentEntryListener;
}

/**
 * The detectors of the chain triggers other than custom events (docs/chains.md, "Triggers"):
 * abandoned carts and wish lists, back in stock and price drop, segment entry, and the
 * purchase that ends abandoned-cart runs. They hear tracking, the product subscriptions and
 * the segments through the listeners returned here, which the composition root lists; the
 * rest is running their jobs.
 */
export function createChainTriggers(deps: ChainTriggersDeps): ChainTriggerParts {
  const { db, clock, jobs, starter } = deps;
  const chains = new ActiveChainsView(starter, clock, deps.activeChainsTtlMs ?? DEFAULT_ACTIVE_CHAINS_TTL_MS);
  const products = new TriggerProducts({ shops: deps.shops, products: deps.products });
  const lists = new AbandonedLists({ db, clock, jobs, tracking: deps.tracking, identity: deps.identity, products, chains, starter });
  const alerts = new ProductAlerts({ db, clock, jobs, alerts: deps.productSubscriptions, products, chains, starter });
  const entries = new SegmentEntries({ db, jobs, chains, starter });
  return {
    triggers: {
      checkAbandoned: (job) => lists.check(job),
      handProductAlerts: (job) => alerts.run(job),
      handSegmentEntries: (job) => entries.run(job),
      forgetCachedSettings: () => chains.clear(),
    },
    mergeParticipant: lists.mergeParticipant(),
    trackingSubscriber: lists.trackingSubscriber(),
    alertsListener: alerts.alertsListener(),
    segmentEntryListener: entries.listener(),
  };
}
