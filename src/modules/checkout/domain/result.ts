/**
 * The calculation's answer: every field of interface.md's Checkout apply result, in
 * minor units (money: kopecks; bonuses: hundredths of a bonus), camelCase, plus the holds
 * the service places on apply. result-body.ts renames and converts it for the API
 * scopes; nothing here knows an envelope. docs/checkout.md defines each field.
 */

import type { BenefitTake } from './subscription-benefits.js';

export interface RewardPart {
  readonly total: number;
  readonly perProduct: number;
}

export interface ItemCertificate {
  readonly id: number;
  readonly code: string;
  readonly poolId: number | null;
  /** Minor units this certificate pays for the line. */
  readonly amount: number;
  readonly amountPerProduct: number;
}

export interface CheckoutItem {
  /** The cart's product id (`uniqid` and `product_id` on the wire). */
  readonly productId: string;
  /** From the feed; `---` when the product is not in it. */
  readonly name: string;
  readonly quantity: number;
  readonly price: number;
  /** price × quantity. */
  readonly total: number;
  readonly discountable: boolean;
  readonly bonusable: boolean;
  readonly rewardable: boolean;
  /** Taken off by promotions. */
  readonly paidWithOffers: number;
  readonly paidWithOffersPerProduct: number;
  /** The referral programme's discount: none in Patron yet, always 0. */
  readonly paidWithReferralDiscounts: number;
  readonly paidWithReferralDiscountsPerProduct: number;
  /** A discount programme by level: Patron's programme is a bonus programme, always 0. */
  readonly paidWithDiscounts: number;
  readonly paidWithDiscountsPerProduct: number;
  /** Money paid by bonuses. */
  readonly paidWithBonuses: number;
  readonly paidWithBonusesPerProduct: number;
  /** Money paid by certificates. */
  readonly paidWithCertificates: number;
  readonly paidWithCertificatesPerProduct: number;
  /** Bonuses earned: the programme's part plus every promotion's part. */
  readonly bonusesReward: number;
  readonly bonusesRewardPerProduct: number;
  readonly bonusesRewardLoyaltyProgram: RewardPart;
  readonly bonusesRewardReferralProgram: RewardPart;
  /** Keyed by promotion id. */
  readonly bonusesRewardPromotions: Readonly<Record<string, RewardPart>>;
  /** Keyed by certificate id. */
  readonly certificates: Readonly<Record<string, ItemCertificate>>;
  /** Bonuses charged for the line. */
  readonly bonusesUsed: number;
  readonly bonusesUsedPerProduct: number;
  /** Money left to pay for the line after every instrument. */
  readonly totalAfterDiscounts: number;
  readonly totalAfterDiscountsPerProduct: number;
  /** Money bonuses could pay for the line at most (its share cap, in whole bonus steps). */
  readonly maxPayableByBonuses: number;
}

export type PromoCodeFailureReason =
  | 'unknown'
  | 'expired'
  | 'inactive'
  | 'exhausted'
  | 'member_required'
  | 'member_limit'
  | 'conditions_not_met'
  | 'already_applied';

export type CertificateFailureReason = 'unknown' | 'inactive' | 'expired' | 'empty' | 'already_applied' | 'nothing_to_pay';

export interface CodeFailure<R extends string> {
  readonly code: string;
  readonly reason: R;
  readonly message: string;
}

export interface CheckoutResult {
  /** Units in the cart: the sum of quantities. */
  readonly productsTotal: number;
  /** The sum of line totals, before anything. */
  readonly orderTotal: number;
  /** orderTotal − orderToPay: everything every instrument took off. */
  readonly savedTotal: number;
  readonly savedByDiscounts: number;
  readonly savedByBonuses: number;
  readonly savedByOffers: number;
  readonly savedByCertificates: number;
  /** Money left to pay: the sum of the lines' totalAfterDiscounts. */
  readonly orderToPay: number;
  /** Bonuses this order could take at most (balance, share, bonusable lines), charged or not. */
  readonly orderBonusesToCharge: number;
  /** The member's balance before this order; 0 without a member. */
  readonly bonusesBalance: number;
  readonly bonusesReward: number;
  readonly bonusesReferrerReward: number;
  readonly referrerIdentifier: string | null;
  readonly referralProgram: number | null;
  /** Ids of the promotions that took something off or rewarded something, in the order they applied. */
  readonly appliedPromotions: readonly number[];
  readonly rewardedStickers: Readonly<Record<string, never>>;
  readonly usedStickers: Readonly<Record<string, never>>;
  readonly stickersBalance: Readonly<Record<string, never>>;
  readonly promoCodes: readonly string[];
  readonly promoCodesFailed: readonly CodeFailure<PromoCodeFailureReason>[];
  readonly certificates: readonly string[];
  readonly certificatesFailed: readonly CodeFailure<CertificateFailureReason>[];
  /** In the cart's order. */
  readonly items: readonly CheckoutItem[];
}

/** What an apply blocks until the order is confirmed or cancelled. */
export interface CheckoutHolds {
  /** Hundredths of a bonus; 0: none. */
  readonly bonuses: number;
  readonly certificates: readonly { readonly certificateId: number; readonly code: string; readonly amount: number }[];
  readonly promoCodes: readonly { readonly code: string; readonly promotionId: number }[];
  /** What to hold of each promos benefit (SubscriptionUsageService.hold); present when the input had `benefits`. */
  readonly benefits?: readonly BenefitTake[];
}

/** Input that no calculation answers (contract-notes "Loyalty checkout", issue 14 "Bad input"). */
export type CheckoutProblem =
  | { readonly reason: 'empty_cart' }
  | { readonly reason: 'duplicate_product'; readonly productId: string }
  | { readonly reason: 'invalid_line'; readonly index: number; readonly field: 'price' | 'quantity' | 'total' }
  | { readonly reason: 'order_too_large' }
  | { readonly reason: 'member_required' }
  | { readonly reason: 'invalid_bonuses_amount' }
  | { readonly reason: 'bonuses_amount_above_balance'; readonly balance: number };

export type CheckoutOutcome =
  | { readonly ok: true; readonly result: CheckoutResult; readonly holds: CheckoutHolds }
  | { readonly ok: false; readonly problem: CheckoutProblem };
