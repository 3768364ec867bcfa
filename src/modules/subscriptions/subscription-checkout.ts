import type { CheckoutApplyScope, CheckoutHoldParticipant, CheckoutHoldScope } from '../checkout/checkout-holds.js';
import type { SubscriptionUsageService } from './subscription-usage.service.js';

/**
 * Paid subscriptions in the checkout's transaction (docs/subscriptions.md "In the
 * checkout"): an apply whose calculation took promos benefits holds what it took of each;
 * one that took none (no subscription named, or none the member has benefits of) gives
 * the order's earlier hold back. Confirm counts the hold, cancel gives it back. A refused
 * hold (the period's limit was reached by another order between the read and this write)
 * refuses the whole apply, which is computed again on fresh reads. The subscription the
 * order was computed with is a column of the order row, which the checkout writes itself.
 */
export class SubscriptionCheckoutParticipant implements CheckoutHoldParticipant {
  readonly name = 'subscriptions';

  constructor(private readonly usage: Pick<SubscriptionUsageService, 'hold' | 'capture' | 'release'>) {}

  async place(scope: CheckoutApplyScope): Promise<boolean> {
    const subscription = scope.request.subscription ?? null;
    const amounts = scope.calculation.holds.benefits ?? [];
    if (subscription === null || scope.profileId === null || amounts.length === 0) {
      if (!scope.fresh) await this.usage.release(scope.trx, scope.shopId, scope.orderId);
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
