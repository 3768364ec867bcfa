/**
 * One line of the answer from the amounts the steps computed for it. Every `_per_product`
 * figure is its line figure divided by the quantity, rounded half up (docs/checkout.md
 * "Rounding"), so per-product × quantity may differ from the line figure by at most
 * half the quantity in minor units; the line figures are the exact ones.
 */
import { perUnit } from './money.js';
import type { CheckoutItem, ItemCertificate, RewardPart } from './result.js';
import type { PricedLine } from './promotions.js';

/** interface.md, Order: the name when the product is not in the feed. */
export const UNKNOWN_PRODUCT_NAME = '---';

export interface LineAmounts {
  readonly offers: number;
  readonly bonusMoney: number;
  readonly bonusesUsed: number;
  readonly maxPayableByBonuses: number;
  readonly certificates: readonly { readonly id: number; readonly code: string; readonly poolId: number | null; readonly amount: number }[];
  readonly loyaltyReward: number;
  /** Promotion id → bonuses; only promotions that reward this line. */
  readonly promotionRewards: readonly { readonly promotionId: number; readonly bonuses: number }[];
}

function part(total: number, quantity: number): RewardPart {
  return { total, perProduct: perUnit(total, quantity) };
}

export function buildItem(line: PricedLine, amounts: LineAmounts): CheckoutItem {
  const q = line.quantity;
  const certificateTotal = amounts.certificates.reduce((s, c) => s + c.amount, 0);
  const certificates: Record<string, ItemCertificate> = {};
  for (const c of amounts.certificates) {
    certificates[String(c.id)] = { id: c.id, code: c.code, poolId: c.poolId, amount: c.amount, amountPerProduct: perUnit(c.amount, q) };
  }
  const bonusesRewardPromotions: Record<string, RewardPart> = {};
  let promotionsReward = 0;
  for (const r of amounts.promotionRewards) {
    bonusesRewardPromotions[String(r.promotionId)] = part(r.bonuses, q);
    promotionsReward += r.bonuses;
  }
  const reward = amounts.loyaltyReward + promotionsReward;
  const after = line.total - amounts.offers - amounts.bonusMoney - certificateTotal;
  return {
    productId: line.productId,
    name: line.product?.name ?? UNKNOWN_PRODUCT_NAME,
    quantity: q,
    price: line.price,
    total: line.total,
    discountable: line.discountable,
    bonusable: line.bonusable,
    rewardable: line.rewardable,
    paidWithOffers: amounts.offers,
    paidWithOffersPerProduct: perUnit(amounts.offers, q),
    paidWithReferralDiscounts: 0,
    paidWithReferralDiscountsPerProduct: 0,
    paidWithDiscounts: 0,
    paidWithDiscountsPerProduct: 0,
    paidWithBonuses: amounts.bonusMoney,
    paidWithBonusesPerProduct: perUnit(amounts.bonusMoney, q),
    paidWithCertificates: certificateTotal,
    paidWithCertificatesPerProduct: perUnit(certificateTotal, q),
    bonusesReward: reward,
    bonusesRewardPerProduct: perUnit(reward, q),
    bonusesRewardLoyaltyProgram: part(amounts.loyaltyReward, q),
    bonusesRewardReferralProgram: part(0, q),
    bonusesRewardPromotions,
    certificates,
    bonusesUsed: amounts.bonusesUsed,
    bonusesUsedPerProduct: perUnit(amounts.bonusesUsed, q),
    totalAfterDiscounts: after,
    totalAfterDiscountsPerProduct: perUnit(after, q),
    maxPayableByBonuses: amounts.maxPayableByBonuses,
  };
}
