import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import { JobQueue } from './jobs/queue.js';
import { IdentityService } from './modules/identity/identity.service.js';
import { ShopsService } from './modules/shops/shops.service.js';
import { AdminTokenService } from './modules/system/admin-token.service.js';

/** Every service, built once per process from explicit dependencies. */
export interface Services {
  readonly shops: ShopsService;
  readonly adminToken: AdminTokenService;
  /** Profiles, devices and identifiers; other modules register merge participants on it. */
  readonly identity: IdentityService;
  /** The durable job queue: services enqueue; the process's JobRunner (if any) runs. */
  readonly jobs: JobQueue;
}

export function createServices(deps: { config: Config; db: DbHandle; clock: Clock }): Services {
  const { config, db, clock } = deps;
  return {
    shops: new ShopsService({ db, clock }),
    adminToken: new AdminTokenService({ db, clock, envToken: config.adminToken }),
    identity: new IdentityService({ db, clock }),
    jobs: new JobQueue({ db, clock }),
  };
}
