import type { CheckoutApplyScope, CheckoutHoldParticipant, CheckoutHoldScope } from '../checkout/checkout-holds.js';
import { setOrderSubscription } from './subscriptions.repo.js';
import type { SubscriptionUsageService } from './subscription-usage.service.js';

/**
 * Paid subscriptions in the checkout's transaction (docs/subscriptions.md "In the
 * checkout"): an apply that names a subscription holds what the calculation took of each
 * promos benefit and records the subscription on the order; a repeat apply without it
 * gives the order's earlier hold back. Confirm counts the hold, cancel gives it back. A
 * refused hold (the period's limit was reached by another order between the read and
 * this write) refuses the whole apply, which is computed again on fresh reads.
 */
export class SubscriptionCheckoutParticipant implements CheckoutHoldParticipant {
  readonly name = 'subscriptions';

  constructor(private readonly usage: Pick<SubscriptionUsageService, 'hold' | 'capture' | 'release'>) {}

  async place(scope: CheckoutApplyScope): Promise<boolean> {
    const subscription = scope.request.subscription ?? null;
    const amounts = scope.calculation.holds.benefits ?? [];
    if (subscription === null || scope.profileId === null) {
      await this.usage.release(scope.trx, scope.shopId, scope.orderId);
      await setOrderSubscription(scope.trx, scope.shopId, scope.orderId, null);
      return true;
    }
    await setOrderSubscription(scope.trx, scope.shopId, scope.orderId, subscription);
    if (amounts.length === 0) {
      await this.usage.release(scope.trx, scope.shopId, scope.orderId);
      return true;
    }
    const held = await this.usage.hold(scope.trx, { shopId: scope.shopId, timezone: scope.timezone }, scope.orderId, {
      subscription,
      profileId: scope.profileId,
      amounts,
    });
    return held.ok;
  }

  async capture(scope: CheckoutHoldScope): Promise<void> {
    await this.usage.capture(scope.trx, scope.shopId, scope.orderId);
  }

  async release(scope: CheckoutHoldScope): Promise<void> {
    await this.usage.release(scope.trx, scope.shopId, scope.orderId);
  }
}
