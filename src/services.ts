import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import { JobQueue } from './jobs/queue.js';
import { IdentityService } from './modules/identity/identity.service.js';
import { ProfileViewService } from './modules/profile-view/profile-view.service.js';
import { ShopsService } from './modules/shops/shops.service.js';
import { AdminTokenService } from './modules/system/admin-token.service.js';
import { TrackingService } from './modules/tracking/tracking.service.js';

/** Every service, built once per process from explicit dependencies. */
export interface Services {
  readonly shops: ShopsService;
  readonly adminToken: AdminTokenService;
  /** Profiles, devices and identifiers; other modules register merge participants on it. */
  readonly identity: IdentityService;
  /** The durable job queue: services enqueue; the process's JobRunner (if any) runs. */
  readonly jobs: JobQueue;
  /** Sessions, events (group-committed), carts, wish lists, orders, product counters. */
  readonly tracking: TrackingService;
  /** The admin read model: profiles with their devices, segments and lists; a device's events. */
  readonly profileView: ProfileViewService;
}

export function createServices(deps: { config: Config; db: DbHandle; clock: Clock }): Services {
  const { config, db, clock } = deps;
  const shops = new ShopsService({ db, clock });
  const identity = new IdentityService({ db, clock });
  const jobs = new JobQueue({ db, clock });
  const tracking = new TrackingService({ db, clock, identity, shops, jobs });
  return {
    shops,
    adminToken: new AdminTokenService({ db, clock, envToken: config.adminToken }),
    identity,
    jobs,
    tracking,
    // Segments (issue 5) join here as `segments:`, a ProfileSegmentSource.
    profileView: new ProfileViewService({ shops, identity, tracking }),
  };
}
