import type { RouteObject } from 'react-router';

/** The events section: a shop's custom event codes. */
export const eventRoutes: RouteObject[] = [
  { path: 'shops/:shopId/event-codes', lazy: async () => ({ Component: (await import('./event-codes.screen')).EventCodesScreen }) },
];
