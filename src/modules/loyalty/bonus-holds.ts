import { AppError } from '../../errors.js';
import type { HoldPlacement, OrderHoldParticipant, OrderHoldScope, OrderPlaceScope } from '../order-holds/index.js';
import type { LoyaltyLedger } from './loyalty-ledger.js';

/** What the bonus holds read of an order. */
export interface OrderBonuses {
  /** Hundredths of a bonus the calculation charges; 0: none. */
  readonly holds: { readonly bonuses: number };
  /** The ledger hold of the order's bonuses (its transaction id), null: none; at an apply, the one it held before. */
  readonly bonusHoldId: number | null;
}

/** The order's new bonus hold, which the order keeps on its row. */
export interface PlacedBonuses {
  readonly bonusHoldId: number | null;
}

/**
 * The member's bonuses in the checkout's transactions (docs/checkout.md "Bonuses"): an
 * apply places a pending debit of the bonuses the order charges, a confirm posts it, a
 * cancel voids it or, for a completed order, refunds it to exactly the lots it drew from.
 * The ledger locks the member in the caller's transaction (LoyaltyLedger.writeIn).
 */
export class BonusHolds implements OrderHoldParticipant<OrderBonuses, PlacedBonuses> {
  readonly name = 'bonuses';
  readonly locks = 'member';

  constructor(private readonly ledger: Pick<LoyaltyLedger, 'writeIn' | 'settleHoldIn' | 'activeHoldAmount'>) {}

  /** Beyond the member's balance: refused (the ledger's CONFLICT, its writes rolled back with the apply). */
  async place(scope: OrderPlaceScope, order: OrderBonuses): Promise<HoldPlacement<PlacedBonuses>> {
    // The ledger keeps one active hold per order: the old one goes before the new one is placed.
    if (order.bonusHoldId !== null) await this.ledger.settleHoldIn(scope.trx, scope.shopId, order.bonusHoldId, 'released');
    const amount = order.holds.bonuses;
    if (amount <= 0 || scope.profileId === null) return { ok: true, note: { bonusHoldId: null } };
    try {
      const placed = await this.ledger.writeIn(scope.trx, scope.shopId, scope.profileId, (w) => w.hold(scope.orderId, amount));
      return { ok: true, note: { bonusHoldId: placed.transactionId } };
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') return { ok: false };
      throw error;
    }
  }

  async capture(scope: OrderHoldScope, order: OrderBonuses): Promise<void> {
    if (order.bonusHoldId !== null) await this.ledger.settleHoldIn(scope.trx, scope.shopId, order.bonusHoldId, 'captured');
  }

  /** A hold no longer active was captured: refunded, unless the member has left the programme (nothing to give back to). */
  async release(scope: OrderHoldScope, order: OrderBonuses): Promise<void> {
    const holdId = order.bonusHoldId;
    if (holdId === null || (await this.ledger.settleHoldIn(scope.trx, scope.shopId, holdId, 'released')) || scope.profileId === null)
      return;
    const reason = `Order ${scope.orderId} cancelled`;
    try {
      await this.ledger.writeIn(scope.trx, scope.shopId, scope.profileId, async (w) => ((await w.refund(holdId, reason)).ok ? holdId : 0));
    } catch (error) {
      // lockMember changed no row: nothing to roll back.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
    }
  }

  async intact(shopId: string, _orderId: string, order: OrderBonuses): Promise<boolean> {
    if (order.holds.bonuses <= 0) return true;
    return order.bonusHoldId !== null && (await this.ledger.activeHoldAmount(shopId, order.bonusHoldId)) === order.holds.bonuses;
  }
}
