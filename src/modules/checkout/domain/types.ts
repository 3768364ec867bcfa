/**
 * The checkout calculation's inputs and outputs (docs/checkout.md). Plain typed objects:
 * the service loads them, `calculateCheckout` computes, the public edge maps the result
 * to the Checkout apply result of interface.md. Money is integer minor units (kopecks);
 * bonuses are integer hundredths of a bonus, as the ledger keeps them; percents are
 * hundredths of a percent, as the programme settings keep them.
 */
import type { LoyaltySettings } from '../../loyalty/index.js';

/** One line of `cart_items`. */
export interface CartLine {
  readonly productId: string;
  /** Minor units of one unit, before any discount; > 0. */
  readonly price: number;
  /** Units, an integer > 0. */
  readonly quantity: number;
  /** False: the line takes no discount of any promotion. */
  readonly discountable: boolean;
  /** False: bonuses cannot pay for the line. */
  readonly bonusable: boolean;
  /** False: the line earns no reward. */
  readonly rewardable: boolean;
}

/** What the served feed says of a product the cart names; a product absent from the feed has none. */
export interface ProductFacts {
  readonly productId: string;
  readonly name: string;
  /** The product's categories together with all their ancestors in the feed's tree. */
  readonly categoryIds: readonly string[];
}

export interface MemberFacts {
  /** The member's public identifier (phone, else loyalty_id). */
  readonly identifier: string;
  /** Spendable bonuses (hundredths of a bonus): confirmed, unexpired, not held. */
  readonly balance: number;
  /** The member's level code; null without a level. */
  readonly levelCode: string | null;
  /** The level's reward percent (hundredths); null: the programme's `rewardPercent`. */
  readonly rewardPercent: number | null;
  /** True when the member has no confirmed loyalty order yet. */
  readonly isFirstOrder: boolean;
}

export type ProgrammeSettings = Pick<LoyaltySettings, 'rewardPercent' | 'maxBonusSharePercent' | 'bonusValue'>;

export type PromotionStatus = 'draft' | 'scheduled' | 'inactive' | 'active' | 'archived';

export interface SpecialPrice {
  readonly productId: string;
  /** Minor units of one unit. */
  readonly price: number;
}

/**
 * What a promotion takes off. `percent` is hundredths of a percent (1–10000), per line
 * (each line rounded on its own) or per order (one rounded sum spread over the lines).
 * `fixed` is minor units, off each unit of every matching line or once for the order,
 * spread over the matching lines. `special_price` makes the unit price of each listed
 * product that price.
 */
export type PromotionDiscount =
  | { readonly kind: 'percent'; readonly percent: number; readonly per: 'line' | 'order' }
  | { readonly kind: 'fixed'; readonly amount: number; readonly per: 'unit' | 'order' }
  | { readonly kind: 'special_price'; readonly prices: readonly SpecialPrice[] };

/** Minutes since local midnight, [0, 1440). */
export interface TimeOfDay {
  readonly from: number;
  readonly to: number;
}

/** Every list that is empty does not restrict. */
export interface PromotionConditions {
  readonly productIds: readonly string[];
  /** Matched with their descendants: a product matches when its categories or their ancestors include one. */
  readonly categoryIds: readonly string[];
  /** Minor units; the order total before discounts must reach it. */
  readonly minOrderTotal: number | null;
  readonly streams: readonly string[];
  readonly paymentTypes: readonly string[];
  readonly locationIds: readonly string[];
  readonly timeOfDay: TimeOfDay | null;
  readonly memberLevels: readonly string[];
  readonly firstOrderOnly: boolean;
}

export interface Promotion {
  readonly id: number;
  readonly status: PromotionStatus;
  /** Epoch ms; null: no bound. */
  readonly startsAt: number | null;
  readonly endsAt: number | null;
  /** Higher applies first; equal priorities by ascending id. */
  readonly priority: number;
  readonly byPromoCode: boolean;
  readonly conditions: PromotionConditions;
  readonly discount: PromotionDiscount | null;
  /** Hundredths of a percent of the money paid on its lines, as extra bonuses; 0: none. */
  readonly bonusRewardPercent: number;
}

export type PromoCodeState =
  | { readonly found: false }
  | {
      readonly found: true;
      readonly promotionId: number;
      readonly endsAt: number | null;
      /** Uses still possible (limit − used − held by other orders); null: unlimited. */
      readonly usageLeft: number | null;
      readonly perMemberLimit: number | null;
      /** This member's uses, used and held by other orders. */
      readonly memberUses: number;
    };

export interface PromoCodeRequest {
  readonly code: string;
  readonly state: PromoCodeState;
}

export type CertificateState =
  | { readonly found: false }
  | {
      readonly found: true;
      readonly id: number;
      readonly poolId: number | null;
      /** Minor units still available (balance minus what other orders hold). */
      readonly balance: number;
      readonly expiresAt: number | null;
      readonly active: boolean;
    };

export interface CertificateRequest {
  readonly code: string;
  readonly state: CertificateState;
}

export interface CheckoutInput {
  readonly cart: readonly CartLine[];
  readonly products: readonly ProductFacts[];
  readonly member: MemberFacts | null;
  readonly settings: ProgrammeSettings;
  /** The shop's promotions that may apply, those of the requested codes included. */
  readonly promotions: readonly Promotion[];
  readonly promoCodes: readonly PromoCodeRequest[];
  readonly certificates: readonly CertificateRequest[];
  readonly chargeBonuses: boolean;
  /** Hundredths of a bonus; null: as many as allowed. */
  readonly bonusesAmount: number | null;
  readonly paymentType: string | null;
  readonly stream: string | null;
  readonly locationId: string | null;
  /** `HH:MM` as sent; absent or malformed falls back to `now` in `timezone`. */
  readonly currentTime: string | null;
  readonly now: number;
  readonly timezone: string;
  /**
   * Paid subscriptions' promos benefits (docs/subscriptions.md, "In the checkout"):
   * absent for a calculation that knows none. `benefitOnly` are the promotions that
   * apply only through a benefit; `grants` the order member's benefits with what is left.
   */
  readonly benefits?: CheckoutBenefits | undefined;
}

export interface CheckoutBenefits {
  readonly grants: readonly BenefitGrant[];
  readonly benefitOnly: ReadonlySet<number>;
}

/** A promos benefit of the member, with what is left of it this period. */
export interface BenefitGrant {
  readonly benefit: string;
  readonly promotionIds: readonly number[];
  /** Minor units of discount left this period. */
  readonly savingsLeft: number;
  /** Applications (orders) left this period. */
  readonly usageLeft: number;
}
