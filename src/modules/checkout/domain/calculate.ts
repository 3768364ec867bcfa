/**
 * The checkout calculation, whole (docs/checkout.md): cart, member, promotions, codes,
 * certificates, the bonus request and the time in; every field of the Checkout apply
 * result and the holds out. Pure: no I/O, no clock, no randomness.
 *
 * Order of application, as the platform's estimate pipeline runs it: promotions (those
 * of valid promo codes among them), then bonuses on what promotions left, then
 * certificates on what bonuses left, then the reward on the money that is left to pay.
 */
import { payWithCertificates } from './certificates.js';
import { planBonuses } from './bonuses.js';
import { screenPromoCodes, promoCodeFailure } from './codes.js';
import { isPromotionLive, localMinutes, orderConditionsHold, type OrderFacts } from './conditions.js';
import { buildItem } from './items.js';
import { sum } from './money.js';
import { comparePromotionOrder, stackPromotions, type PricedLine } from './promotions.js';
import { rewardOverLines } from './reward.js';
import { capStackedOffers } from './subscription-benefits.js';
import type { CheckoutHolds, CheckoutOutcome, CheckoutResult, CodeFailure, PromoCodeFailureReason } from './result.js';
import type { CheckoutInput, Promotion } from './types.js';
import { findProblem } from './validate.js';

function subtract(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x - (b[i] ?? 0));
}

export function calculateCheckout(input: CheckoutInput): CheckoutOutcome {
  const problem = findProblem(input);
  if (problem) return { ok: false, problem };
  const { member, settings, now } = input;

  const products = new Map(input.products.map((p) => [p.productId, p]));
  const lines: PricedLine[] = input.cart.map((l) => ({
    productId: l.productId,
    price: l.price,
    quantity: l.quantity,
    discountable: l.discountable,
    bonusable: l.bonusable,
    rewardable: l.rewardable,
    total: l.price * l.quantity,
    product: products.get(l.productId),
  }));
  const keys = lines.map((l) => l.productId);
  const totals = lines.map((l) => l.total);
  const orderTotal = sum(totals);
  // The local time is worked out only when a time-of-day condition asks: its time zone arithmetic was a third of the calculation.
  let minutes: number | undefined;
  const order: OrderFacts = {
    orderTotal,
    member,
    paymentType: input.paymentType,
    stream: input.stream,
    locationId: input.locationId,
    get minutes() {
      return (minutes ??= localMinutes(input.currentTime, now, input.timezone));
    },
  };

  // 1. Promotions: those that need no code and hold, and those valid codes bring in.
  const byId = new Map(input.promotions.map((p) => [p.id, p]));
  const screened = screenPromoCodes(input.promoCodes, byId, member, order, now);
  const inPlay = new Map<number, Promotion>();
  // A promotion that applies only through a subscription benefit is in play only for a member holding one.
  const granted = new Set(input.benefits?.grants.filter((g) => g.usageLeft >= 1 && g.savingsLeft > 0).flatMap((g) => g.promotionIds) ?? []);
  const throughBenefit = (p: Promotion) => !input.benefits?.benefitOnly.has(p.id) || granted.has(p.id);
  for (const p of input.promotions) {
    if (!p.byPromoCode && throughBenefit(p) && isPromotionLive(p, now) && orderConditionsHold(p, order)) inPlay.set(p.id, p);
  }
  for (const s of screened) if (s.ok) inPlay.set(s.promotion.id, s.promotion);
  const stackedAll = stackPromotions(lines, [...inPlay.values()].sort(comparePromotionOrder));
  // Benefit promotions within what is left of the period's limits (docs/subscriptions.md).
  const capped = input.benefits ? capStackedOffers(stackedAll, input.benefits.grants, input.benefits.benefitOnly, keys) : undefined;
  const stacked = capped?.stacked ?? stackedAll;
  const afterOffers = subtract(totals, stacked.offers);

  // 2. Bonuses on what promotions left.
  const plan = planBonuses({
    left: afterOffers,
    bonusable: lines.map((l) => l.bonusable),
    keys,
    balance: member ? member.balance : null,
    maxSharePercent: settings.maxBonusSharePercent,
    bonusValue: settings.bonusValue,
    charge: input.chargeBonuses,
    amount: input.bonusesAmount,
  });
  const afterBonuses = subtract(afterOffers, plan.money);

  // 3. Certificates on what bonuses left.
  const certs = payWithCertificates(input.certificates, afterBonuses, keys, now);
  const toPay = subtract(afterBonuses, certs.paid);

  // 4. The reward on the money paid, for a member only: nobody else can be credited.
  const earns = lines.map((l) => member !== null && l.rewardable);
  const loyalty = rewardOverLines(toPay, earns, keys, member?.rewardPercent ?? settings.rewardPercent, settings.bonusValue);
  const promotionRewards = stacked.effects.map((e) =>
    rewardOverLines(
      toPay,
      earns.map((earn, i) => earn && (e.covered[i] ?? false)),
      keys,
      e.promotion.bonusRewardPercent,
      settings.bonusValue,
    ),
  );

  const applied = stacked.effects.filter((e, k) => sum(e.discounts) > 0 || sum(promotionRewards[k] ?? []) > 0).map((e) => e.promotion.id);
  const appliedSet = new Set(applied);

  const promoCodes: string[] = [];
  const promoCodesFailed: CodeFailure<PromoCodeFailureReason>[] = [];
  const codeHolds: { code: string; promotionId: number }[] = [];
  for (const s of screened) {
    if (!s.ok) promoCodesFailed.push(s.failure);
    else if (!appliedSet.has(s.promotion.id)) promoCodesFailed.push(promoCodeFailure(s.code, 'conditions_not_met'));
    else {
      promoCodes.push(s.code);
      codeHolds.push({ code: s.code, promotionId: s.promotion.id });
    }
  }

  const items = lines.map((line, i) =>
    buildItem(line, {
      offers: stacked.offers[i] ?? 0,
      bonusMoney: plan.money[i] ?? 0,
      bonusesUsed: plan.bonuses[i] ?? 0,
      maxPayableByBonuses: plan.capMoney[i] ?? 0,
      certificates: certs.payments
        .filter((c) => (c.parts[i] ?? 0) > 0)
        .map((c) => ({ id: c.id, code: c.code, poolId: c.poolId, amount: c.parts[i] ?? 0 })),
      loyaltyReward: loyalty[i] ?? 0,
      promotionRewards: stacked.effects
        .map((e, k) => ({ promotionId: e.promotion.id, bonuses: promotionRewards[k]?.[i] ?? 0 }))
        .filter((r) => r.bonuses > 0),
    }),
  );

  const savedByOffers = sum(items.map((it) => it.paidWithOffers));
  const savedByDiscounts = sum(items.map((it) => it.paidWithDiscounts));
  const savedByReferral = sum(items.map((it) => it.paidWithReferralDiscounts));
  const savedByBonuses = sum(items.map((it) => it.paidWithBonuses));
  const savedByCertificates = sum(items.map((it) => it.paidWithCertificates));
  const result: CheckoutResult = {
    productsTotal: sum(lines.map((l) => l.quantity)),
    orderTotal,
    savedTotal: savedByOffers + savedByDiscounts + savedByReferral + savedByBonuses + savedByCertificates,
    savedByDiscounts,
    savedByBonuses,
    savedByOffers,
    savedByCertificates,
    orderToPay: sum(items.map((it) => it.totalAfterDiscounts)),
    orderBonusesToCharge: plan.maxBonuses,
    bonusesBalance: member?.balance ?? 0,
    bonusesReward: sum(items.map((it) => it.bonusesReward)),
    bonusesReferrerReward: 0,
    referrerIdentifier: null,
    referralProgram: null,
    appliedPromotions: applied,
    rewardedStickers: {},
    usedStickers: {},
    stickersBalance: {},
    promoCodes,
    promoCodesFailed,
    certificates: certs.payments.map((c) => c.code),
    certificatesFailed: certs.failed,
    items,
  };
  const holds: CheckoutHolds = {
    bonuses: plan.chargedBonuses,
    certificates: certs.payments.map((c) => ({ certificateId: c.id, code: c.code, amount: c.amount })),
    promoCodes: codeHolds,
    ...(capped && { benefits: capped.takes }),
  };
  return { ok: true, result, holds };
}
