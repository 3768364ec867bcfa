import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SegmentsService } from '../audience/index.js';
import type { SendGate, TemplateSource } from '../messaging/index.js';
import type { MessageWriter } from '../messaging/index.js';
import type { TemplateRenderer } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import { BulkExpansion } from './bulk-expand.js';
import { BulkService } from './bulk.service.js';
import { LimitsService } from './limits.service.js';
import { ReachService } from './reach.service.js';

export interface BulkServices {
  /** Frequency caps and quiet hours per channel (docs/bulk.md); the delivery path's send gate. */
  readonly messagingLimits: LimitsService;
  /** Bulk mailings to segments: create, read, the A/B decision (docs/bulk.md). */
  readonly bulkMailings: BulkService;
  /** The reachable audience of segments per channel, before a mailing is sent (docs/bulk.md). */
  readonly bulkReach: ReachService;
  /** The `bulk.expand` job: a bulk mailing's members, page by page, into messages. */
  readonly bulkExpansion: BulkExpansion;
}

export interface BulkModule {
  readonly services: BulkServices;
  readonly jobs: Pick<JobHandlers, 'bulk.expand' | 'bulk.decide'>;
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
  /** A bulk mailing message's templates, by reference. */
  readonly templateSource: TemplateSource;
  /** Quiet hours holding bulk and chain deliveries. */
  readonly sendGate: SendGate;
}

/** Bulk mailings (docs/bulk.md): their templates by reference, and quiet hours holding bulk and chain deliveries. */
export function createBulkModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  readonly segments: SegmentsService;
  readonly templateRenderer: TemplateRenderer;
  readonly messageWriter: MessageWriter;
  readonly messagingChannels: { configuredChannels(shopId: string): Promise<ReadonlySet<string>> };
}): BulkModule {
  const { db, clock, jobs, shops } = deps;
  const limits = new LimitsService({ db, clock, shops });
  const reach = new ReachService({ db, clock, shops, segments: deps.segments, limits, channels: deps.messagingChannels });
  const bulk = new BulkService({ db, clock, shops, reach, renderer: deps.templateRenderer, jobs });
  const expansion = new BulkExpansion({ db, clock, writer: deps.messageWriter, limits, jobs });
  return {
    services: { messagingLimits: limits, bulkMailings: bulk, bulkReach: reach, bulkExpansion: expansion },
    jobs: {
      // A page of members per run, committed with its cursor and the next page's job; a page run
      // twice writes once (its advance is conditional on the page count).
      'bulk.expand': { handler: (payload) => expansion.runPage(payload) },
      'bulk.decide': { handler: (payload) => bulk.decide(payload) },
    },
    settingsListeners: [() => limits.forgetCachedSettings(), () => bulk.forgetCachedSettings()],
    templateSource: (shopId, ref) => bulk.templateSource(shopId, ref),
    sendGate: (shopId, channel, type, now) => limits.sendAt(shopId, channel, type, now),
  };
}
