import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import type { CheckoutHoldParticipant } from './checkout-holds.js';
import { CheckoutInputs, type CheckoutInputsDeps } from './checkout-inputs.js';
import { CheckoutSettle, type CheckoutSettleDeps } from './checkout-settle.js';
import { CheckoutService, type CheckoutDeps } from './checkout.service.js';

export interface CheckoutServices {
  /** The loyalty checkout: estimate, apply, confirm, cancel, history and the admin's orders (docs/checkout.md). */
  readonly checkout: CheckoutService;
}

export interface CheckoutModule {
  readonly services: CheckoutServices;
  readonly trackingSubscribers: readonly TrackingSubscriber[];
}

/** The services the checkout reads and writes through, by the names the composition root gives them. */
export interface CheckoutModuleDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly loyalty: CheckoutDeps['members'] & CheckoutInputsDeps['members'] & CheckoutSettleDeps['members'];
  readonly loyaltyLevels: CheckoutInputsDeps['levels'] & CheckoutSettleDeps['levels'];
  readonly loyaltyLedger: CheckoutInputsDeps['ledger'] & CheckoutSettleDeps['ledger'];
  readonly loyaltyReferrals: CheckoutInputsDeps['referrals'];
  readonly promotions: CheckoutInputsDeps['promotions'];
  readonly promoCodes: CheckoutInputsDeps['promoCodes'];
  readonly certificates: CheckoutInputsDeps['certificates'];
  readonly subscriptionUsage: CheckoutInputsDeps['subscriptions'];
  readonly productFacts: CheckoutInputsDeps['products'];
  /**
   * What an order holds, placed at apply, captured at confirm and released at cancel, in
   * the order in which they lock their rows (docs/checkout.md "Orders"): each module that
   * holds a limit of its own returns its participant, the composition root lists them.
   */
  readonly holds: readonly CheckoutHoldParticipant[];
}

export function createCheckoutModule(deps: CheckoutModuleDeps): CheckoutModule {
  const { db, clock, loyalty: members, loyaltyLevels: levels, loyaltyLedger: ledger } = deps;
  const checkout = new CheckoutService({
    db,
    clock,
    shops: deps.shops,
    members,
    inputs: new CheckoutInputs({
      db,
      clock,
      members,
      levels,
      ledger,
      referrals: deps.loyaltyReferrals,
      promotions: deps.promotions,
      promoCodes: deps.promoCodes,
      certificates: deps.certificates,
      products: deps.productFacts,
      subscriptions: deps.subscriptionUsage,
    }),
    settle: new CheckoutSettle({ db, clock, ledger, members, levels, holds: deps.holds }),
  });
  // A purchase event with the order_id of a created checkout order confirms it.
  return { services: { checkout }, trackingSubscribers: [checkout.trackingSubscriber()] };
}
