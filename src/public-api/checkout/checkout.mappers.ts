import type { CheckoutAnswer, CheckoutOrder } from '../../modules/checkout/checkout.types.js';
import type { CheckoutItem, CheckoutResult, RewardPart } from '../../modules/checkout/domain/result.js';
import { toUnits } from '../../modules/loyalty/domain/amount.js';

/**
 * The checkout's answers in the contract's shapes (interface.md "Checkout apply result"
 * and "Order"; contract-notes "Loyalty checkout"): snake_case, and every amount — money
 * in kopecks, bonuses in hundredths — as a number of currency units or bonuses.
 */

function part(p: RewardPart) {
  return { total: toUnits(p.total), per_product: toUnits(p.perProduct) };
}

function itemBody(it: CheckoutItem) {
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

export function resultBody(answer: { orderId: string | null; identifier: string; paymentType: string; result: CheckoutResult }) {
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
    referral_program: r.referralProgram,
    applied_promotions: r.appliedPromotions,
    rewarded_stickers: {},
    used_stickers: {},
    stickers_balance: {},
    promo_codes: r.promoCodes,
    promo_codes_failed: r.promoCodesFailed.map((f) => ({ code: f.code, message: f.message })),
    certificates: r.certificates,
    certificates_failed: r.certificatesFailed.map((f) => ({ code: f.code, message: f.message })),
    items: r.items.map(itemBody),
  };
}

/** The payload of estimate, apply and confirm; the duplicate-product answer as contract-notes words it. */
export function answerPayload(answer: CheckoutAnswer) {
  if (!answer.ok) return { message: 'Cart contains line items with the same product ID', identifier: answer.identifier };
  return new ResultPayload(answer);
}

type ResultAnswer = Parameters<typeof resultBody>[0];

/**
 * A computed result on its way out: checkoutJson writes it straight from the calculation
 * (resultJson), without building resultBody's object of some 400 fields first; any other
 * JSON.stringify of it (toJSON) gives resultBody, which resultJson equals byte for byte
 * (checkout.mappers.test.ts). The answer is 10 kB for 10 lines: building and stringifying
 * the object was about 6 % of an estimate's CPU.
 */
export class ResultPayload {
  constructor(readonly answer: ResultAnswer) {}

  toJSON() {
    return resultBody(this.answer);
  }
}

/**
 * The serializer compiler of the checkout routes: a ResultPayload in the status envelope
 * (`{"status":"success","payload":…}`, the only body its routes wrap it in) by resultJson,
 * anything else by JSON.stringify as plainJson does.
 */
export function checkoutJson(): (data: unknown) => string {
  return (data) => {
    const payload = (data as { payload?: unknown } | null)?.payload;
    if (payload instanceof ResultPayload && (data as { status?: unknown }).status === 'success' && Object.keys(data as object).length === 2) {
      return `{"status":"success","payload":${resultJson(payload.answer)}}`;
    }
    return JSON.stringify(data);
  };
}

const str = JSON.stringify;

/** A number as JSON.stringify writes it (null when not finite). */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

function units(minor: number): string {
  return num(toUnits(minor));
}

function partJson(p: RewardPart): string {
  return `{"total":${units(p.total)},"per_product":${units(p.perProduct)}}`;
}

function itemJson(it: CheckoutItem): string {
  let promotions = '';
  for (const [id, p] of Object.entries(it.bonusesRewardPromotions)) promotions += `${promotions === '' ? '' : ','}${str(id)}:${partJson(p)}`;
  let certificates = '';
  for (const [key, c] of Object.entries(it.certificates)) {
    certificates +=
      `${certificates === '' ? '' : ','}${str(key)}:{"id":${num(c.id)},"code":${str(c.code)},"pool_id":${c.poolId === null ? 'null' : num(c.poolId)},` +
      `"amount":${units(c.amount)},"amount_per_product":${units(c.amountPerProduct)}}`;
  }
  const id = str(it.productId);
  return (
    `{"uniqid":${id},"product_id":${id},"name":${str(it.name)},"quantity":${num(it.quantity)},"price":${units(it.price)},"total":${units(it.total)},` +
    `"discountable":${it.discountable},"bonusable":${it.bonusable},"rewardable":${it.rewardable},` +
    `"paid_with_offers":${units(it.paidWithOffers)},"paid_with_offers_per_product":${units(it.paidWithOffersPerProduct)},` +
    `"paid_with_referral_discounts":${units(it.paidWithReferralDiscounts)},"paid_with_referral_discounts_per_product":${units(it.paidWithReferralDiscountsPerProduct)},` +
    `"paid_with_discounts":${units(it.paidWithDiscounts)},"paid_with_discounts_per_product":${units(it.paidWithDiscountsPerProduct)},` +
    `"paid_with_bonuses":${units(it.paidWithBonuses)},"paid_with_bonuses_per_product":${units(it.paidWithBonusesPerProduct)},` +
    `"paid_with_certificates":${units(it.paidWithCertificates)},"paid_with_certificates_per_product":${units(it.paidWithCertificatesPerProduct)},` +
    `"bonuses_reward":${units(it.bonusesReward)},"bonuses_reward_per_product":${units(it.bonusesRewardPerProduct)},` +
    `"bonuses_reward_loyalty_program":${partJson(it.bonusesRewardLoyaltyProgram)},"bonuses_reward_referral_program":${partJson(it.bonusesRewardReferralProgram)},` +
    `"bonuses_reward_promotions":{${promotions}},"certificates":{${certificates}},` +
    `"bonuses_used":${units(it.bonusesUsed)},"bonuses_used_per_product":${units(it.bonusesUsedPerProduct)},` +
    `"total_after_discounts":${units(it.totalAfterDiscounts)},"total_after_discounts_per_product":${units(it.totalAfterDiscountsPerProduct)},` +
    `"max_payable_by_bonuses":${units(it.maxPayableByBonuses)}}`
  );
}

function failedJson(failed: readonly { code: string; message: string }[]): string {
  return `[${failed.map((f) => `{"code":${str(f.code)},"message":${str(f.message)}}`).join(',')}]`;
}

/** JSON.stringify(resultBody(answer)), written field by field in resultBody's order. */
export function resultJson(answer: ResultAnswer): string {
  const r = answer.result;
  return (
    `{"order_id":${str(answer.orderId ?? '')},"identifier":${str(answer.identifier)},"payment_type":${str(answer.paymentType)},` +
    `"products_total":${num(r.productsTotal)},"order_total":${units(r.orderTotal)},"saved_total":${units(r.savedTotal)},` +
    `"saved_by_discounts":${units(r.savedByDiscounts)},"saved_by_bonuses":${units(r.savedByBonuses)},"saved_by_offers":${units(r.savedByOffers)},` +
    `"saved_by_certificates":${units(r.savedByCertificates)},"order_to_pay":${units(r.orderToPay)},"order_bonuses_to_charge":${units(r.orderBonusesToCharge)},` +
    `"bonuses_balance":${units(r.bonusesBalance)},"bonuses_reward":${units(r.bonusesReward)},"bonuses_referrer_reward":${units(r.bonusesReferrerReward)},` +
    `"referrer_identifier":${r.referrerIdentifier === null ? 'null' : str(r.referrerIdentifier)},` +
    `"referral_program":${r.referralProgram === null ? 'null' : num(r.referralProgram)},"applied_promotions":${str(r.appliedPromotions)},` +
    `"rewarded_stickers":{},"used_stickers":{},"stickers_balance":{},"promo_codes":${str(r.promoCodes)},"promo_codes_failed":${failedJson(r.promoCodesFailed)},` +
    `"certificates":${str(r.certificates)},"certificates_failed":${failedJson(r.certificatesFailed)},"items":[${r.items.map(itemJson).join(',')}]}`
  );
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
