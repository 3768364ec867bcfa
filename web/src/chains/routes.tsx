import type { RouteObject } from 'react-router';

/** The chains: the list, the builder of a new chain, and one chain with its runs and counts. */
export const chainRoutes: RouteObject[] = [
  { path: 'shops/:shopId/chains', lazy: async () => ({ Component: (await import('./chains.screen')).ChainsScreen }) },
  { path: 'shops/:shopId/chains/new', lazy: async () => ({ Component: (await import('./chain.screen')).NewChainScreen }) },
  { path: 'shops/:shopId/chains/:code', lazy: async () => ({ Component: (await import('./chain.screen')).ChainScreen }) },
];
