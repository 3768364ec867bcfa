import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { Late } from '../../late.js';
import type { ShopsService } from '../shops/index.js';
import { DashboardBackfill } from './backfill.js';
import { DashboardsService, type Liabilities } from './dashboards.service.js';
import { DashboardRollups } from './rollups.js';

export interface DashboardsServices {
  /** The overview and funnels of the admin API, read from the rollups (docs/dashboards.md). */
  readonly dashboards: DashboardsService;
  /** The rollups' writer: tracking, messaging and loyalty call it in their own transactions. */
  readonly dashboardRollups: DashboardRollups;
  /** What was stored before the rollups existed, counted a batch per commit. */
  readonly dashboardBackfill: DashboardBackfill;
}

export interface DashboardsModule {
  readonly services: DashboardsServices;
  readonly jobs: Pick<JobHandlers, 'dashboards.backfill'>;
}

/** Built before the modules that write what it counts (they take `dashboardRollups`); the liabilities are loyalty's, bound late. */
export function createDashboardsModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly liabilities: Late<(shopId: string) => Promise<Liabilities>>;
}): DashboardsModule {
  const rollups = new DashboardRollups(deps);
  const backfill = new DashboardBackfill({ ...deps, rollups });
  const dashboards = new DashboardsService({ db: deps.db, shops: deps.shops, liabilities: (shopId) => deps.liabilities.get()(shopId) });
  return {
    services: { dashboards, dashboardRollups: rollups, dashboardBackfill: backfill },
    jobs: {
      // A shop's history, from its saved cursor to the end; a redelivered job resumes there.
      'dashboards.backfill': { handler: (payload, ctx) => backfill.run(payload.shopId, { signal: ctx.signal }) },
    },
  };
}
