import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import { BlocksService, type BlocksDeps } from './blocks.service.js';
import { EvaluationService } from './evaluation.service.js';
import { ModelsService } from './models.service.js';
import { PredictService, type PredictDeps } from './predict.service.js';

export interface RecommendationsServices {
  /** Recommendation blocks of the admin API (and, later, GET /recommend/{code}). */
  readonly recommendationBlocks: BlocksService;
  /** The recommenders' stored models: built by a job, read by GET /recommend (docs/recommendations.md "Models"). */
  readonly recommendationModels: ModelsService;
  /** GET /predict/probability-to-purchase over the model the rebuild trains (docs/recommendations.md "Purchase prediction"). */
  readonly purchasePredictor: PredictService;
  /** `patron recommendations evaluate` (docs/recommendations.md "Evaluation"). */
  readonly recommendationEvaluation: EvaluationService;
}

export interface RecommendationsModule {
  readonly services: RecommendationsServices;
  readonly jobs: Pick<JobHandlers, 'recommendations.rebuild'>;
}

export function createRecommendationsModule(deps: BlocksDeps & PredictDeps & { readonly jobs: JobQueue }): RecommendationsModule {
  const models = new ModelsService(deps);
  return {
    services: {
      recommendationBlocks: new BlocksService(deps),
      recommendationModels: models,
      purchasePredictor: new PredictService(deps),
      recommendationEvaluation: new EvaluationService(deps),
    },
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
