import type { HoldPlacement, OrderHoldParticipant, OrderHoldScope, OrderPlaceScope } from '../order-holds/index.js';
import type { BenefitAmount, SubscriptionUsageService } from './subscription-usage.service.js';

/** What the benefit holds read of an order. */
export interface OrderBenefits {
  /** What the calculation takes of each promos benefit; absent or empty: none. */
  readonly holds: { readonly benefits?: readonly BenefitAmount[] | undefined };
  /** The paid subscription the order is computed with; null: none. */
  readonly subscription: string | null;
}

/**
 * Paid subscriptions in the checkout's transactions (docs/subscriptions.md "In the
 * checkout"): an apply whose calculation took promos benefits holds what it took of each;
 * one that took none (no subscription, or none the member has benefits of) gives the
 * order's earlier hold back. Confirm counts the hold, cancel gives it back. A refused hold
 * (the period's limit was reached by another order between the read and this write)
 * refuses the whole apply, which is computed again on fresh reads.
 */
export class BenefitHolds implements OrderHoldParticipant<OrderBenefits> {
  readonly name = 'subscription benefits';
  readonly locks = 'after member';

  constructor(private readonly usage: Pick<SubscriptionUsageService, 'hold' | 'capture' | 'release'>) {}

  async place(scope: OrderPlaceScope, order: OrderBenefits): Promise<HoldPlacement<never>> {
    const amounts = order.holds.benefits ?? [];
    if (order.subscription === null || scope.profileId === null || amounts.length === 0) {
      if (!scope.fresh) await this.usage.release(scope.trx, scope.shopId, scope.orderId);
      return { ok: true };
    }
    const held = await this.usage.hold(scope.trx, { shopId: scope.shopId, timezone: scope.timezone }, scope.orderId, {
      subscription: order.subscription,
      profileId: scope.profileId,
      amounts,
    });
    return { ok: held.ok };
  }

  async capture(scope: OrderHoldScope): Promise<void> {
    await this.usage.capture(scope.trx, scope.shopId, scope.orderId);
  }

  async release(scope: OrderHoldScope): Promise<void> {
    await this.usage.release(scope.trx, scope.shopId, scope.orderId);
  }
}
