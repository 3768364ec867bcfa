import type { RouteObject } from 'react-router';

/** The loyalty section: promotions and promo codes, the programme and its members, subscriptions, certificates. */
export const loyaltyRoutes: RouteObject[] = [
  { path: 'shops/:shopId/promotions', lazy: async () => ({ Component: (await import('./promotions.screen')).PromotionsScreen }) },
  { path: 'shops/:shopId/promotions/new', lazy: async () => ({ Component: (await import('./promotion.screen')).NewPromotionScreen }) },
  { path: 'shops/:shopId/promotions/:id', lazy: async () => ({ Component: (await import('./promotion.screen')).PromotionScreen }) },
  { path: 'shops/:shopId/loyalty/members', lazy: async () => ({ Component: (await import('./members.screen')).MembersScreen }) },
  { path: 'shops/:shopId/loyalty/members/:identifier', lazy: async () => ({ Component: (await import('./member.screen')).MemberScreen }) },
  { path: 'shops/:shopId/loyalty', lazy: async () => ({ Component: (await import('./programme.screen')).ProgrammeScreen }) },
  { path: 'shops/:shopId/subscriptions', lazy: async () => ({ Component: (await import('./subscriptions.screen')).SubscriptionsScreen }) },
  {
    path: 'shops/:shopId/subscriptions/:code',
    lazy: async () => ({ Component: (await import('./subscription.screen')).SubscriptionScreen }),
  },
  { path: 'shops/:shopId/certificates', lazy: async () => ({ Component: (await import('./certificates.screen')).CertificatesScreen }) },
];
