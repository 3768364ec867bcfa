import type { RouteObject } from 'react-router';

/** The catalog section: the feed and its imports, products, hidden products, categories, searches without results, sliders. */
export const catalogRoutes: RouteObject[] = [
  { path: 'shops/:shopId/feed', lazy: async () => ({ Component: (await import('./feed.screen')).FeedScreen }) },
  { path: 'shops/:shopId/products', lazy: async () => ({ Component: (await import('./products.screen')).ProductsScreen }) },
  { path: 'shops/:shopId/products/hidden', lazy: async () => ({ Component: (await import('./hidden.screen')).HiddenProductsScreen }) },
  { path: 'shops/:shopId/categories', lazy: async () => ({ Component: (await import('./categories.screen')).CategoriesScreen }) },
  { path: 'shops/:shopId/search/no-results', lazy: async () => ({ Component: (await import('./no-results.screen')).NoResultsScreen }) },
  { path: 'shops/:shopId/sliders', lazy: async () => ({ Component: (await import('./sliders.screen')).SlidersScreen }) },
  { path: 'shops/:shopId/sliders/:code', lazy: async () => ({ Component: (await import('./sliders.screen')).SliderScreen }) },
];
