import type { RouteObject } from 'react-router';

/** The shops section: the list, a shop's settings and its integration page. */
export const shopRoutes: RouteObject[] = [
  { path: 'shops', lazy: async () => ({ Component: (await import('./shops-list.screen')).ShopsListScreen }) },
  { path: 'shops/:shopId/settings', lazy: async () => ({ Component: (await import('./shop-settings.screen')).ShopSettingsScreen }) },
  { path: 'shops/:shopId/integration', lazy: async () => ({ Component: (await import('./integration.screen')).IntegrationScreen }) },
];
