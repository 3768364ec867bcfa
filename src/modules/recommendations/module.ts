import { BlocksService, type BlocksDeps } from './blocks.service.js';

export interface RecommendationsServices {
  /** Recommendation blocks of the admin API (and, later, GET /recommend/{code}). */
  readonly recommendationBlocks: BlocksService;
}

export function createRecommendationsModule(deps: BlocksDeps): { readonly services: RecommendationsServices } {
  return { services: { recommendationBlocks: new BlocksService(deps) } };
}
