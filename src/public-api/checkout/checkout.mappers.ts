import type { CheckoutAnswer, CheckoutOrder } from '../../modules/checkout/checkout.types.js';
import type { CheckoutItem, CheckoutResult, RewardPart } from '../../modules/checkout/domain/result.js';
import { toUnits } from '../../modules/loyalty/domain/amount.js';
import type { Static } from '@sinclair/typebox';
import type { ItemSchema, ResultSchema } from './checkout.schemas.js';

/** `referral_program` of a result without a referral: no programme has id 0. */
export const NO_REFERRAL_PROGRAM = 0;

/**
 * The checkout's answers in the contract's shapes (interface.md "Checkout apply result"
 * and "Order"; contract-notes "Loyalty checkout"): snake_case, and every amount — money
 * in kopecks, bonuses in hundredths — as a number of currency units or bonuses. The
 * result's types are its schema's (checkout.schemas.ts), which its compiled serialiser
 * writes field by field: a field built here and missing there fails to compile.
 */

function part(p: RewardPart) {
  return { total: toUnits(p.total), per_product: toUnits(p.perProduct) };
}

function itemBody(it: CheckoutItem): Static<typeof ItemSchema> {
  return {
    uniqid: it.productId,
    product_id: it.productId,
    name: it.name,
    quantity: it.quantity,
    price: toUnits(it.price),
    total: toUnits(it.total),
    discountable: it.discountable,
    bonusable: it.bonusable,
    rewardable: it.rewardable,
    paid_with_offers: toUnits(it.paidWithOffers),
    paid_with_offers_per_product: toUnits(it.paidWithOffersPerProduct),
    paid_with_referral_discounts: toUnits(it.paidWithReferralDiscounts),
    paid_with_referral_discounts_per_product: toUnits(it.paidWithReferralDiscountsPerProduct),
    paid_with_discounts: toUnits(it.paidWithDiscounts),
    paid_with_discounts_per_product: toUnits(it.paidWithDiscountsPerProduct),
    paid_with_bonuses: toUnits(it.paidWithBonuses),
    paid_with_bonuses_per_product: toUnits(it.paidWithBonusesPerProduct),
    paid_with_certificates: toUnits(it.paidWithCertificates),
    paid_with_certificates_per_product: toUnits(it.paidWithCertificatesPerProduct),
    bonuses_reward: toUnits(it.bonusesReward),
    bonuses_reward_per_product: toUnits(it.bonusesRewardPerProduct),
    bonuses_reward_loyalty_program: part(it.bonusesRewardLoyaltyProgram),
    bonuses_reward_referral_program: part(it.bonusesRewardReferralProgram),
    bonuses_reward_promotions: Object.fromEntries(Object.entries(it.bonusesRewardPromotions).map(([id, p]) => [id, part(p)])),
    certificates: Object.fromEntries(
      Object.entries(it.certificates).map(([key, c]) => [
        key,
        { id: c.id, code: c.code, pool_id: c.poolId, amount: toUnits(c.amount), amount_per_product: toUnits(c.amountPerProduct) },
      ]),
    ),
    bonuses_used: toUnits(it.bonusesUsed),
    bonuses_used_per_product: toUnits(it.bonusesUsedPerProduct),
    total_after_discounts: toUnits(it.totalAfterDiscounts),
    total_after_discounts_per_product: toUnits(it.totalAfterDiscountsPerProduct),
    max_payable_by_bonuses: toUnits(it.maxPayableByBonuses),
  };
}

export function resultBody(answer: { orderId: string | null; identifier: string; paymentType: string; result: CheckoutResult }): Static<typeof ResultSchema> {
  const r = answer.result;
  return {
    order_id: answer.orderId ?? '',
    identifier: answer.identifier,
    payment_type: answer.paymentType,
    products_total: r.productsTotal,
    order_total: toUnits(r.orderTotal),
    saved_total: toUnits(r.savedTotal),
    saved_by_discounts: toUnits(r.savedByDiscounts),
    saved_by_bonuses: toUnits(r.savedByBonuses),
    saved_by_offers: toUnits(r.savedByOffers),
    saved_by_certificates: toUnits(r.savedByCertificates),
    order_to_pay: toUnits(r.orderToPay),
    order_bonuses_to_charge: toUnits(r.orderBonusesToCharge),
    bonuses_balance: toUnits(r.bonusesBalance),
    bonuses_reward: toUnits(r.bonusesReward),
    bonuses_referrer_reward: toUnits(r.bonusesReferrerReward),
    referrer_identifier: r.referrerIdentifier,
    // interface.md types it Integer, and strongly typed clients fail on null. Programme ids
    // start at 1, so 0 names none, as bonuses_referrer_reward is 0 without a referral.
    referral_program: r.referralProgram ?? NO_REFERRAL_PROGRAM,
    applied_promotions: [...r.appliedPromotions],
    rewarded_stickers: {},
    used_stickers: {},
    stickers_balance: {},
    promo_codes: [...r.promoCodes],
    promo_codes_failed: r.promoCodesFailed.map((f) => ({ code: f.code, message: f.message })),
    certificates: [...r.certificates],
    certificates_failed: r.certificatesFailed.map((f) => ({ code: f.code, message: f.message })),
    items: r.items.map(itemBody),
  };
}

/** The payload of estimate, apply and confirm; the duplicate-product answer as contract-notes words it. */
export function answerPayload(answer: CheckoutAnswer) {
  if (!answer.ok) return { message: 'Cart contains line items with the same product ID', identifier: answer.identifier };
  return resultBody(answer);
}

/** interface.md "Order", without `discounts` (loyalty history). */
export function orderBody(order: CheckoutOrder) {
  const { result } = order.calculation;
  return {
    id: order.orderId,
    date: new Date(order.createdAt).toISOString(),
    status: order.status,
    total: toUnits(result.orderToPay).toFixed(2),
    items: result.items.map((it) => ({
      id: it.productId,
      name: it.name,
      quantity: it.quantity,
      price: toUnits(it.totalAfterDiscountsPerProduct),
    })),
  };
}
