import type { RouteObject } from 'react-router';

/** The transactional mailings: their list, a new one, and one mailing's page (the template editor and its funnel). */
export const templateRoutes: RouteObject[] = [
  {
    path: 'shops/:shopId/transactional',
    lazy: async () => ({ Component: (await import('./transactional-list.screen')).TransactionalListScreen }),
  },
  { path: 'shops/:shopId/transactional/new', lazy: async () => ({ Component: (await import('./mailing.screen')).NewMailingScreen }) },
  { path: 'shops/:shopId/transactional/m/:code', lazy: async () => ({ Component: (await import('./mailing.screen')).MailingScreen }) },
];
