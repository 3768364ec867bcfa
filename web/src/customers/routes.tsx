import type { RouteObject } from 'react-router';

/** The customers section: find a customer, a customer's page, segments and audience import. */
export const customerRoutes: RouteObject[] = [
  { path: 'shops/:shopId/customers', lazy: async () => ({ Component: (await import('./customers-list.screen')).CustomersListScreen }) },
  { path: 'shops/:shopId/customers/:profileId', lazy: async () => ({ Component: (await import('./customer.screen')).CustomerScreen }) },
  { path: 'shops/:shopId/segments', lazy: async () => ({ Component: (await import('./segments.screen')).SegmentsScreen }) },
  { path: 'shops/:shopId/imports', lazy: async () => ({ Component: (await import('./imports.screen')).ImportsScreen }) },
];
