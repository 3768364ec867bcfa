import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DashboardRollups } from '../dashboards/index.js';
import { normalizeQuery } from '../search/index.js';
import type { TrackedBatchListener } from '../tracking/index.js';
import { BlockPreviewService } from './block-preview.service.js';
import { BlocksService, type BlocksDeps } from './blocks.service.js';
import { EvaluationService } from './evaluation.service.js';
import { BlockFiguresService } from './figures.service.js';
import { ModelReads } from './model-reads.js';
import { ModelsService } from './models.service.js';
import { PredictService, type PredictDeps } from './predict.service.js';
import { RecommendService, type RecommendDeps } from './recommend.service.js';

export interface RecommendationsServices {
  /** Recommendation blocks of the admin API (and, later, GET /recommend/{code}). */
  readonly recommendationBlocks: BlocksService;
  /** The recommenders' stored models: built by a job, read by GET /recommend (docs/recommendations.md "Models"). */
  readonly recommendationModels: ModelsService;
  /** GET /recommend/{code}: a block's products for a visitor and a product. */
  readonly recommend: RecommendService;
  /** The admin UI's preview of a block for a product and a customer. */
  readonly recommendationPreview: BlockPreviewService;
  /** GET /predict/probability-to-purchase over the model the rebuild trains (docs/recommendations.md "Purchase prediction"). */
  readonly purchasePredictor: PredictService;
  /** `patron recommendations evaluate` (docs/recommendations.md "Evaluation"). */
  readonly recommendationEvaluation: EvaluationService;
  /** Each block's daily figures: counted in tracking's batches, read by the admin API (docs/recommendations.md "Figures"). */
  readonly recommendationFigures: BlockFiguresService;
}

export interface RecommendationsModule {
  readonly services: RecommendationsServices;
  readonly jobs: Pick<JobHandlers, 'recommendations.rebuild'>;
  /** Counts the blocks' figures in each tracking batch's transaction. */
  readonly batchListener: TrackedBatchListener;
}

export type RecommendationsDeps = BlocksDeps &
  PredictDeps &
  Pick<RecommendDeps, 'catalog' | 'listing' | 'productFacts' | 'identity' | 'tracking'> &
  Pick<ConstructorParameters<typeof BlockPreviewService>[0], 'products'> & {
    readonly jobs: JobQueue;
    readonly dashboardRollups: Pick<DashboardRollups, 'timezoneOf'>;
  };

export function createRecommendationsModule(deps: RecommendationsDeps): RecommendationsModule {
  const models = new ModelsService(deps);
  const blocks = new BlocksService(deps);
  const figures = new BlockFiguresService({ ...deps, timezones: deps.dashboardRollups });
  const recommend = new RecommendService({ ...deps, blocks, models: new ModelReads(deps), search: { normalizeQuery } });
  return {
    services: {
      recommendationBlocks: blocks,
      recommendationModels: models,
      recommend,
      recommendationPreview: new BlockPreviewService({ shops: deps.shops, recommend, products: deps.products }),
      purchasePredictor: new PredictService(deps),
      recommendationEvaluation: new EvaluationService(deps),
      recommendationFigures: figures,
    },
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
