import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AudienceService } from '../audience/index.js';
import type { SegmentEntryListener, SegmentsService } from '../audience/index.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { LoyaltyLevelsService } from '../loyalty/index.js';
import type { TemplateSource } from '../messaging/index.js';
import type { MessageWriter } from '../messaging/index.js';
import type { TemplateRenderer } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingService } from '../tracking/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import type { ChainStarter } from './chain-starter.js';
import { ChainReportsService } from './chain-reports.service.js';
import { ChainSteps } from './chain-steps.js';
import { ChainsService } from './chains.service.js';
import type { AlertsListener } from './triggers/product-alerts.js';
import { createChainTriggers, type ChainTriggers, type ChainTriggersDeps } from './triggers/chain-triggers.js';

export interface ChainsServices {
  /** Triggered message chains: the admin's chains and the ChainStarter the trigger detectors call (docs/chains.md). */
  readonly chains: ChainsService;
  /** Per-step statistics and pages of runs, for the chain builder. */
  readonly chainReports: ChainReportsService;
  /** The `chains.step` job: a run's due steps, each at most once. */
  readonly chainSteps: ChainSteps;
  /** The trigger detectors' jobs: abandoned lists, product alerts, segment entries (docs/chains.md, "Triggers"). */
  readonly chainTriggers: ChainTriggers;
}

export interface ChainsModule {
  readonly services: ChainsServices;
  readonly jobs: Pick<JobHandlers, 'chains.step' | 'chains.abandoned_check' | 'chains.product_alerts' | 'chains.segment_entries'>;
  readonly mergeParticipants: readonly MergeParticipant[];
  readonly trackingSubscribers: readonly TrackingSubscriber[];
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
  /** The product subscriptions' landings that wrote alerts. */
  readonly productAlertListener: AlertsListener;
  /** Profiles entering segments. */
  readonly segmentEntryListener: SegmentEntryListener;
  /** A chain message's templates, in the chain's version. */
  readonly templateSource: TemplateSource;
}

/**
 * Chains (docs/chains.md): steps run in the `chains.step` job; their messages find their
 * templates in the chain's version; custom events start the chains they trigger. The other
 * triggers (docs/chains.md, "Triggers"): abandoned lists and purchases heard from tracking,
 * product alerts from catalog landings, segment entries from member additions.
 */
export function createChainsModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  readonly audience: AudienceService;
  readonly segments: SegmentsService;
  readonly tracking: TrackingService;
  readonly loyaltyLevels: LoyaltyLevelsService;
  readonly templateRenderer: TemplateRenderer;
  readonly messageWriter: MessageWriter;
  readonly products: ChainTriggersDeps['products'];
  readonly productSubscriptions: ChainTriggersDeps['productSubscriptions'];
  /** The engine the trigger detectors start runs on; the chains service unless a test of the detectors records them instead. */
  readonly triggerStarter?: ChainStarter;
}): ChainsModule {
  const { db, clock, jobs, shops, identity, segments } = deps;
  const steps = new ChainSteps({
    db,
    clock,
    jobs,
    writer: deps.messageWriter,
    identity,
    audience: deps.audience,
    orders: deps.tracking,
    segments,
    levels: deps.loyaltyLevels,
  });
  const chains = new ChainsService({ db, clock, shops, identity, renderer: deps.templateRenderer, segments, jobs, steps });
  const triggers = createChainTriggers({
    db,
    clock,
    jobs,
    shops,
    identity,
    tracking: deps.tracking,
    products: deps.products,
    productSubscriptions: deps.productSubscriptions,
    starter: deps.triggerStarter ?? chains,
  });
  return {
    services: { chains, chainReports: new ChainReportsService({ db, shops, steps }), chainSteps: steps, chainTriggers: triggers.triggers },
    jobs: {
      // A chain run's due steps: each step moves the run conditionally in the transaction of what
      // it writes, so a redelivered job finds the step done and goes on from where the run is.
      'chains.step': { handler: (payload) => steps.run(payload) },
      // The trigger detectors' jobs (docs/chains.md, "Triggers"): keyed starts, so a rerun starts nothing twice.
      'chains.abandoned_check': { handler: (payload) => triggers.triggers.checkAbandoned(payload) },
      'chains.product_alerts': { handler: (payload) => triggers.triggers.handProductAlerts(payload) },
      'chains.segment_entries': { handler: (payload) => triggers.triggers.handSegmentEntries(payload) },
    },
    mergeParticipants: [chains.mergeParticipant(), triggers.mergeParticipant],
    // Custom events start the chains they trigger; list changes and purchases move the abandoned-list watches.
    trackingSubscribers: [chains.trackingSubscriber(), triggers.trackingSubscriber],
    settingsListeners: [() => chains.forgetCachedSettings(), () => triggers.triggers.forgetCachedSettings()],
    productAlertListener: triggers.alertsListener,
    segmentEntryListener: triggers.segmentEntryListener,
    templateSource: (shopId, ref) => chains.templates(shopId, ref),
  };
}
