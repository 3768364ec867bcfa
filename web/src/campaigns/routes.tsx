import type { RouteObject } from 'react-router';

/** The campaigns (bulk mailings): the list, compose, and one campaign's progress and results. */
export const campaignRoutes: RouteObject[] = [
  { path: 'shops/:shopId/campaigns', lazy: async () => ({ Component: (await import('./campaigns-list.screen')).CampaignsListScreen }) },
  { path: 'shops/:shopId/campaigns/new', lazy: async () => ({ Component: (await import('./compose.screen')).ComposeScreen }) },
  { path: 'shops/:shopId/campaigns/:id', lazy: async () => ({ Component: (await import('./campaign.screen')).CampaignScreen }) },
];
