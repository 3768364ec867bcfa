import type { RouteObject } from 'react-router';

/** Recommendations: the blocks and the models' build, a new block, one block's figures, preview and rules. */
export const recommendationRoutes: RouteObject[] = [
  { path: 'shops/:shopId/recommendations', lazy: async () => ({ Component: (await import('./blocks.screen')).BlocksScreen }) },
  { path: 'shops/:shopId/recommendations/new', lazy: async () => ({ Component: (await import('./blocks.screen')).NewBlockScreen }) },
  { path: 'shops/:shopId/recommendations/:code', lazy: async () => ({ Component: (await import('./block.screen')).BlockScreen }) },
];
