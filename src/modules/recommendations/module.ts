import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DashboardRollups } from '../dashboards/index.js';
import type { TrackedBatchListener } from '../tracking/index.js';
import { BlocksService, type BlocksDeps } from './blocks.service.js';
import { BlockFiguresService } from './figures.service.js';
import { ModelsService } from './models.service.js';

export interface RecommendationsServices {
  /** Recommendation blocks of the admin API (and, later, GET /recommend/{code}). */
  readonly recommendationBlocks: BlocksService;
  /** The recommenders' stored models: built by a job, read by GET /recommend (docs/recommendations.md "Models"). */
  readonly recommendationModels: ModelsService;
  /** Each block's daily figures: counted in tracking's batches, read by the admin API (docs/recommendations.md "Figures"). */
  readonly recommendationFigures: BlockFiguresService;
}

export interface RecommendationsModule {
  readonly services: RecommendationsServices;
  readonly jobs: Pick<JobHandlers, 'recommendations.rebuild'>;
  /** Counts the blocks' figures in each tracking batch's transaction. */
  readonly batchListener: TrackedBatchListener;
}

export function createRecommendationsModule(
  deps: BlocksDeps & { readonly jobs: JobQueue; readonly dashboardRollups: Pick<DashboardRollups, 'timezoneOf'> },
): RecommendationsModule {
  const models = new ModelsService(deps);
  const figures = new BlockFiguresService({ ...deps, timezones: deps.dashboardRollups });
  return {
    services: { recommendationBlocks: new BlocksService(deps), recommendationModels: models, recommendationFigures: figures },
    batchListener: figures.batchListener(),
    jobs: {
      // A build replaces the lists in one transaction and holds a per-shop claim, so a
      // redelivered job either builds again (harmless) or finds the claim held and stops.
      'recommendations.rebuild': {
        handler: async (payload, ctx) => {
          await models.runJob(payload, { signal: ctx.signal });
        },
        options: { maxAttempts: 3, backoffMs: 60_000 },
      },
    },
  };
}
