import { toUnits } from '../../modules/loyalty/domain/amount.js';
import type { CheckoutResult } from '../../modules/checkout/domain/result.js';
import type { BenefitState, MemberStatus, SubscriptionOrder } from '../../modules/subscriptions/subscriptions.types.js';

/**
 * interface.md resources "Subscription member", "Benefit" and "Order" from the module's
 * objects. Money leaves in currency units (minor / 100), as everywhere on the public side.
 */

export function statusPayload(status: MemberStatus) {
  const m = status.member;
  return {
    message: 'Subscription member is found',
    member: {
      identifier: m.identifier,
      subscription: m.subscription,
      plan: m.plan,
      active: m.active,
      paid_till: m.paidTill,
      limits_reset_date: m.limitsResetDate,
    },
    benefits: status.benefits.map(benefitBody),
  };
}

function benefitBody(b: BenefitState) {
  if (b.dataType !== 'promos') return { code: b.code, name: b.name, data_type: b.dataType, value: b.value };
  const a = b.allowance;
  return {
    code: b.code,
    name: b.name,
    data_type: b.dataType,
    value: {
      promotions: b.promotions.map((p) => ({ id: p.id, name: p.name, status: p.status })),
      // interface.md types the savings as Integer: whole currency units, the used part
      // rounded up and the part left rounded down, so that neither promises too much.
      savings_limit: Math.floor(a.savingsLimit / 100),
      savings_used: Math.ceil(a.savingsUsed / 100),
      savings_left: Math.floor(a.savingsLeft / 100),
      usage_limit: a.usageLimit,
      usage_used: a.usageUsed,
      usage_left: a.usageLeft,
    },
  };
}

/** interface.md "Order" with `discounts` (contract-notes, "Loyalty checkout"): the estimate's savings of the order. */
export function subscriptionOrderBody(order: SubscriptionOrder) {
  const r = order.result as CheckoutResult;
  return {
    id: order.orderId,
    date: new Date(order.createdAt).toISOString(),
    status: order.status,
    total: toUnits(r.orderToPay).toFixed(2),
    discounts: {
      saved_total: toUnits(r.savedTotal),
      saved_by_discounts: toUnits(r.savedByDiscounts),
      saved_by_bonuses: toUnits(r.savedByBonuses),
      saved_by_offers: toUnits(r.savedByOffers),
      saved_by_certificates: toUnits(r.savedByCertificates),
      applied_promotions: [...r.appliedPromotions],
    },
    items: r.items.map((it) => ({
      id: it.productId,
      name: it.name,
      quantity: it.quantity,
      price: toUnits(it.totalAfterDiscountsPerProduct),
    })),
  };
}
