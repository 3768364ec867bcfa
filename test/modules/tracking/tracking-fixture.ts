import { ManualClock } from '../../../src/clock.js';
import { JobQueue } from '../../../src/jobs/queue.js';
import { Late } from '../../../src/late.js';
import { IdentityService, type MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import type { TrackedItem } from '../../../src/modules/tracking/domain/items.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { TrackingService } from '../../../src/modules/tracking/tracking.service.js';
import type { PushEventInput, TrackingSubscriber } from '../../../src/modules/tracking/tracking.types.js';
import type { TestDb } from '../../helpers/db.js';

export interface TrackingStack {
  readonly clock: ManualClock;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
  readonly jobs: JobQueue;
  readonly tracking: TrackingService;
  /** Tracking's subscribers: a test lists its own here, as the composition root lists the modules'. */
  readonly subscribers: TrackingSubscriber[];
}

/** The tracking service with its real dependencies on the test database; only the clock is manual. */
export function trackingStack(db: TestDb, clock = new ManualClock()): TrackingStack {
  const shops = new ShopsService({ db, clock });
  const mergeParticipants = Late.namedList<MergeParticipant>('merge participant');
  const identity = new IdentityService({ db, clock, mergeParticipants });
  const jobs = new JobQueue({ db, clock });
  const subscribers: TrackingSubscriber[] = [];
  const tracking = new TrackingService({ db, clock, identity, shops, jobs, subscribers: Late.of(subscribers) });
  mergeParticipants.bind([tracking.mergeParticipant()]);
  return { clock, shops, identity, jobs, tracking, subscribers };
}

export const item = (id: string, amount = 1, extra: Partial<TrackedItem> = {}): TrackedItem => ({ id, amount, ...extra });

/** A push event with defaults: no attribution, no items. */
export function push(shopId: string, did: string, event: PushEventInput['event'], rest: Partial<PushEventInput> = {}): PushEventInput {
  return { shopId, did, event, items: [], attribution: {}, ...rest };
}

export async function countRows(
  db: TestDb,
  table: 'events' | 'orders' | 'jobs' | 'product_counters' | 'sessions',
  shopId?: string,
): Promise<number> {
  let query = db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (shopId !== undefined && table !== 'jobs') query = query.where('shop_id', '=', shopId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
