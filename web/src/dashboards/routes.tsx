import type { RouteObject } from 'react-router';

/** The dashboards: a shop's overview of a period, and one mailing's, chain's or campaign's funnel. */
export const dashboardRoutes: RouteObject[] = [
  { path: 'shops/:shopId/dashboard', lazy: async () => ({ Component: (await import('./dashboard.screen')).DashboardScreen }) },
  {
    path: 'shops/:shopId/dashboard/funnels/:type/:id',
    lazy: async () => ({ Component: (await import('./funnel')).FunnelScreen }),
  },
];
