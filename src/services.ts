import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import { ShopsService } from './modules/shops/shops.service.js';
import { AdminTokenService } from './modules/system/admin-token.service.js';

/** Every service, built once per process from explicit dependencies. */
export interface Services {
  readonly shops: ShopsService;
  readonly adminToken: AdminTokenService;
}

export function createServices(deps: { config: Config; db: DbHandle; clock: Clock }): Services {
  const { config, db, clock } = deps;
  return {
    shops: new ShopsService({ db, clock }),
    adminToken: new AdminTokenService({ db, clock, envToken: config.adminToken }),
  };
}
