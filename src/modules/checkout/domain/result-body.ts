import { Type, type Static, type TNumber } from '@sinclair/typebox';
import { toUnits } from '../../loyalty/index.js';
import type { CheckoutItem, CheckoutResult, RewardPart } from './result.js';

/**
 * The Checkout apply result as the contract spells it (interface.md "Checkout apply
 * result"; contract-notes "Loyalty checkout"): snake_case, and every amount — money in
 * kopecks, bonuses in hundredths — as a number of currency units or bonuses. Both API
 * scopes answer with it: the public estimate, apply and confirm, and the admin API's
 * order read, as the calculation the order stored. One source of truth: the schemas
 * document and serialise it, and resultBody builds their type, so a field built here and
 * missing there fails to compile.
 */

const Num = Type.Number();
/** The sticker objects: empty until stickers exist (contract-notes). */
const Empty = Type.Object({}, { additionalProperties: false, description: 'Empty until stickers exist.' });
const Part = Type.Object({ total: Num, per_product: Num });
const Failed = Type.Array(Type.Object({ code: Type.String(), message: Type.String() }));
/** An amount and the same per unit (quantity 1), in currency units or bonuses. */
function Paid<N extends string>(name: N, what: string) {
  return {
    [name]: Type.Number({ description: `${what}, the whole line.` }),
    [`${name}_per_product`]: Type.Number({ description: `${what}, one unit.` }),
  } as Record<N | `${N}_per_product`, TNumber>;
}

/**
 * One line of the Checkout apply result (interface.md), every field. Exact: the public
 * answer goes through a serialiser compiled from this schema, which writes what is listed
 * here and nothing else, and itemBody builds the type of this schema.
 */
export const ItemSchema = Type.Object(
  {
    uniqid: Type.String(),
    product_id: Type.String(),
    name: Type.String({ description: 'From the feed; `---` when the product is not in it.' }),
    quantity: Type.Integer(),
    price: Num,
    total: Num,
    discountable: Type.Boolean(),
    bonusable: Type.Boolean(),
    rewardable: Type.Boolean(),
    ...Paid('paid_with_offers', 'What promotions took off'),
    ...Paid('paid_with_referral_discounts', 'What referral discounts took off'),
    ...Paid('paid_with_discounts', 'What the discount programme took off (0: there is none)'),
    ...Paid('paid_with_bonuses', 'The money bonuses pay'),
    ...Paid('paid_with_certificates', 'The money certificates pay'),
    ...Paid('bonuses_reward', 'The bonuses the line earns'),
    bonuses_reward_loyalty_program: Part,
    bonuses_reward_referral_program: Part,
    bonuses_reward_promotions: Type.Record(Type.String(), Part, { description: 'Keyed by promotion id.' }),
    certificates: Type.Record(
      Type.String(),
      Type.Object({
        id: Type.Integer(),
        code: Type.String(),
        pool_id: Type.Union([Type.Integer(), Type.Null()]),
        amount: Num,
        amount_per_product: Num,
      }),
      { description: 'Keyed by certificate id.' },
    ),
    ...Paid('bonuses_used', 'The bonuses charged for it'),
    ...Paid('total_after_discounts', 'The money left to pay, `total` minus every `paid_with_*`'),
    max_payable_by_bonuses: Type.Number({ description: 'The line’s bonus limit.' }),
  },
  { additionalProperties: false },
);

/** The Checkout apply result (docs/checkout.md), every field; exact as ItemSchema is. */
export const ResultSchema = Type.Object(
  {
    order_id: Type.String(),
    identifier: Type.String(),
    payment_type: Type.String(),
    products_total: Type.Integer(),
    order_total: Num,
    saved_total: Num,
    saved_by_discounts: Num,
    saved_by_bonuses: Num,
    saved_by_offers: Num,
    saved_by_certificates: Num,
    order_to_pay: Num,
    order_bonuses_to_charge: Num,
    bonuses_balance: Num,
    bonuses_reward: Num,
    bonuses_referrer_reward: Num,
    referrer_identifier: Type.Union([Type.String(), Type.Null()]),
    referral_program: Type.Integer({ description: "The referrer's programme (1), or 0 without a referral." }),
    applied_promotions: Type.Array(Type.Integer()),
    rewarded_stickers: Empty,
    used_stickers: Empty,
    stickers_balance: Empty,
    promo_codes: Type.Array(Type.String()),
    promo_codes_failed: Failed,
    certificates: Type.Array(Type.String()),
    certificates_failed: Failed,
    items: Type.Array(ItemSchema),
  },
  { additionalProperties: false, description: 'The Checkout apply result (docs/checkout.md, "The answer\'s fields").' },
);

/** `referral_program` of a result without a referral: no programme has id 0. */
export const NO_REFERRAL_PROGRAM = 0;

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

export function resultBody(answer: {
  orderId: string | null;
  identifier: string;
  paymentType: string;
  result: CheckoutResult;
}): Static<typeof ResultSchema> {
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
