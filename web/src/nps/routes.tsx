import type { RouteObject } from 'react-router';

/** NPS: the reviews with the score, and the settings (channels and categories). */
export const npsRoutes: RouteObject[] = [
  { path: 'shops/:shopId/nps', lazy: async () => ({ Component: (await import('./reviews.screen')).ReviewsScreen }) },
  { path: 'shops/:shopId/nps/settings', lazy: async () => ({ Component: (await import('./settings.screen')).SettingsScreen }) },
];
