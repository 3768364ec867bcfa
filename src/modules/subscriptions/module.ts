import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Late } from '../../late.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { PromotionsService } from '../promotions/index.js';
import type { ShopsService } from '../shops/index.js';
import { SubscriptionMembersService } from './subscription-members.service.js';
import { BenefitHolds } from './subscription-holds.js';
import { SubscriptionUsageService } from './subscription-usage.service.js';
import { SubscriptionsService } from './subscriptions.service.js';
import type { SubscriptionOrders } from './subscriptions.types.js';

export interface SubscriptionsServices {
  /** Paid subscriptions and their plans (admin API; docs/subscriptions.md). */
  readonly subscriptions: SubscriptionsService;
  /** Subscription members: subscribe, prolong, leave, and the public status and orders reads. */
  readonly subscriptionMembers: SubscriptionMembersService;
  /** Promos benefits' per-period usage: the holds the checkout places, captures and releases. */
  readonly subscriptionUsage: SubscriptionUsageService;
}

export interface SubscriptionsModule {
  readonly services: SubscriptionsServices;
  /** What an admin change drops (docs/settings-caches.md). */
  readonly settingsListeners: readonly (() => void)[];
  /** The benefits' usage an order holds (a checkout hold participant). */
  readonly benefitHolds: BenefitHolds;
}

export function createSubscriptionsModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly promotions: PromotionsService;
  /** The loyalty members a public identifier names. */
  readonly loyalty: Pick<LoyaltyService, 'findMember'>;
  /** The checkout's orders of a subscription: the checkout is built after this module (src/services.ts binds it). */
  readonly subscriptionOrders: Late<SubscriptionOrders>;
}): SubscriptionsModule {
  const { db, clock, shops, promotions } = deps;
  const usage = new SubscriptionUsageService({ clock });
  return {
    services: {
      subscriptions: new SubscriptionsService({ db, clock, shops, promotions, usage }),
      subscriptionMembers: new SubscriptionMembersService({
        db,
        clock,
        shops,
        members: deps.loyalty,
        promotions,
        orders: { subscriptionOrders: (shopId, filter) => deps.subscriptionOrders.get().subscriptionOrders(shopId, filter) },
      }),
      subscriptionUsage: usage,
    },
    settingsListeners: [() => usage.forgetCachedSettings()],
    benefitHolds: new BenefitHolds(usage),
  };
}
