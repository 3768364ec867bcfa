import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Late } from '../../late.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { AudienceService } from './audience.service.js';
import { CustomPropertiesService } from './custom-properties.service.js';
import { ProfilesService } from './profiles.service.js';
import { SegmentsService, type SegmentEntryListener } from './segments.service.js';
import { SubscriptionFlagsService } from './subscription-flags.service.js';

/** Whether any of a person's profiles completed a loyalty checkout order (the checkout module, above audience). */
export interface CheckoutOrders {
  hasCompletedOrder(shopId: string, profileIds: readonly number[]): Promise<boolean>;
}

export interface AudienceServices {
  /** Segments of the admin API; the profile view's segment source. */
  readonly segments: SegmentsService;
  /** Custom user property codes and types (admin API), checked by audience imports. */
  readonly customProperties: CustomPropertiesService;
  /** Audience import (POST /import/audience, the CLI) and its import log. */
  readonly audience: AudienceService;
  /** Profiles as the shop's app sets and reads them: fields, flags, push tokens, static segments. */
  readonly profiles: ProfilesService;
}

export interface AudienceModule {
  readonly services: AudienceServices;
  /** The audience record's subscription flags, as the messaging engine's outcomes turn them off. */
  readonly subscriptionFlags: SubscriptionFlagsService;
  readonly jobs: Pick<JobHandlers, 'audience.import'>;
  readonly mergeParticipants: readonly MergeParticipant[];
}

export function createAudienceModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  /** Tracked orders (the tracking service). */
  readonly tracking: { hasOrders(shopId: string, profileId: number): Promise<boolean> };
  /** The checkout's orders: the checkout is built after audience (src/services.ts binds it). */
  readonly checkoutOrders: Late<CheckoutOrders>;
  /** Who hears profiles entering segments (the chain triggers, built after audience). */
  readonly segmentEntryListeners: Late<readonly SegmentEntryListener[]>;
}): AudienceModule {
  const { db, clock, identity, shops } = deps;
  const segments = new SegmentsService({ db, clock, shops, entryListeners: deps.segmentEntryListeners });
  const customProperties = new CustomPropertiesService({ db, clock, shops });
  const audience = new AudienceService({ db, clock, identity, jobs: deps.jobs, shops, segments, properties: customProperties });
  // GET /profile derives bought_something from the orders of both (docs/profiles.md).
  const profiles = new ProfilesService({
    db,
    clock,
    identity,
    properties: customProperties,
    audience,
    segments,
    orders: deps.tracking,
    checkoutOrders: { hasCompletedOrder: (shopId, profileIds) => deps.checkoutOrders.get().hasCompletedOrder(shopId, profileIds) },
  });
  return {
    services: { segments, customProperties, audience, profiles },
    subscriptionFlags: new SubscriptionFlagsService({ db, clock, identity }),
    jobs: {
      // An audience import, from its cursor: each chunk commits with the cursor, so a retry resumes.
      'audience.import': {
        handler: (payload, ctx) => audience.runImport(payload, { signal: ctx.signal, finalAttempt: ctx.attempt >= ctx.maxAttempts }),
        // A worker killed during the last attempt: the import's log must still say it failed.
        options: { onGiveUp: (payload, error) => audience.recordGaveUp(payload, error) },
      },
    },
    mergeParticipants: [audience.mergeParticipant()],
  };
}
