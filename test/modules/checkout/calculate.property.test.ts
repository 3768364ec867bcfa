import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateCheckout } from '../../../src/modules/checkout/domain/calculate.js';
import type { CheckoutItem, CheckoutResult } from '../../../src/modules/checkout/domain/result.js';
import type { CheckoutInput } from '../../../src/modules/checkout/domain/types.js';
import { inputArb } from './arbitraries.js';

function resultOf(i: CheckoutInput): CheckoutResult {
  const outcome = calculateCheckout(i);
  if (!outcome.ok) throw new Error(`unexpected problem ${outcome.problem.reason}`);
  return outcome.result;
}

const total = (items: readonly CheckoutItem[], pick: (it: CheckoutItem) => number) => items.reduce((s, it) => s + pick(it), 0);

function numbersIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) numbersIn(v, out);
  return out;
}

const RUNS = { numRuns: 300 };

describe('checkout calculation properties', () => {
  it('totals equal the sums of the lines, and the lines’ parts add up', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const r = resultOf(i);
        expect(r.orderTotal).toBe(total(r.items, (it) => it.total));
        expect(r.productsTotal).toBe(total(r.items, (it) => it.quantity));
        expect(r.savedByOffers).toBe(total(r.items, (it) => it.paidWithOffers));
        expect(r.savedByDiscounts).toBe(total(r.items, (it) => it.paidWithDiscounts));
        expect(r.savedByBonuses).toBe(total(r.items, (it) => it.paidWithBonuses));
        expect(r.savedByCertificates).toBe(total(r.items, (it) => it.paidWithCertificates));
        expect(r.orderToPay).toBe(total(r.items, (it) => it.totalAfterDiscounts));
        expect(r.savedTotal).toBe(r.orderTotal - r.orderToPay);
        expect(r.bonusesReward).toBe(total(r.items, (it) => it.bonusesReward));
        for (const it of r.items) {
          expect(it.total).toBe(it.price * it.quantity);
          const promotions = Object.values(it.bonusesRewardPromotions).reduce((s, p) => s + p.total, 0);
          expect(it.bonusesReward).toBe(it.bonusesRewardLoyaltyProgram.total + it.bonusesRewardReferralProgram.total + promotions);
          expect(it.paidWithCertificates).toBe(Object.values(it.certificates).reduce((s, c) => s + c.amount, 0));
        }
      }),
      RUNS,
    );
  });

  it('nothing is negative and no line is paid twice', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const outcome = calculateCheckout(i);
        expect(outcome.ok).toBe(true);
        for (const n of numbersIn(outcome)) expect(n).toBeGreaterThanOrEqual(0);
        if (!outcome.ok) return;
        for (const it of outcome.result.items) {
          const paid =
            it.paidWithOffers + it.paidWithDiscounts + it.paidWithReferralDiscounts + it.paidWithBonuses + it.paidWithCertificates;
          expect(paid).toBeLessThanOrEqual(it.total);
          expect(it.totalAfterDiscounts).toBe(it.total - paid);
        }
      }),
      RUNS,
    );
  });

  it('bonuses stay within the balance, the share, bonuses_amount and the bonusable lines', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const outcome = calculateCheckout(i);
        if (!outcome.ok) throw new Error(outcome.problem.reason);
        const { result: r, holds } = outcome;
        const used = total(r.items, (it) => it.bonusesUsed);
        expect(holds.bonuses).toBe(used);
        expect(used).toBeLessThanOrEqual(i.member?.balance ?? 0);
        expect(used).toBeLessThanOrEqual(r.orderBonusesToCharge);
        expect(r.orderBonusesToCharge).toBeLessThanOrEqual(i.member?.balance ?? 0);
        if (!i.chargeBonuses) expect(used).toBe(0);
        if (i.bonusesAmount !== null) expect(used).toBeLessThanOrEqual(i.bonusesAmount);
        for (const it of r.items) {
          // The exchange is exact: bonuses × bonus value = money × 100.
          expect(it.bonusesUsed * i.settings.bonusValue).toBe(it.paidWithBonuses * 100);
          if (!it.bonusable) expect(it.paidWithBonuses).toBe(0);
          const share = Math.floor(((it.total - it.paidWithOffers) * i.settings.maxBonusSharePercent) / 10_000);
          expect(it.paidWithBonuses).toBeLessThanOrEqual(share);
          expect(it.paidWithBonuses).toBeLessThanOrEqual(it.maxPayableByBonuses);
        }
      }),
      RUNS,
    );
  });

  it('leaves discountable:false lines without discount and rewardable:false lines (and non-members) without reward', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const r = resultOf(i);
        for (const it of r.items) {
          if (!it.discountable) expect(it.paidWithOffers + it.paidWithDiscounts + it.paidWithReferralDiscounts).toBe(0);
          if (!it.rewardable || i.member === null) {
            expect(it.bonusesReward).toBe(0);
            expect(it.bonusesRewardPromotions).toEqual({});
          }
        }
      }),
      RUNS,
    );
  });

  it('certificates never pay more than their balance, and holds match what they pay', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const outcome = calculateCheckout(i);
        if (!outcome.ok) throw new Error(outcome.problem.reason);
        for (const hold of outcome.holds.certificates) {
          const request = i.certificates.find((c) => c.code === hold.code);
          expect(request?.state.found && hold.amount <= request.state.balance).toBe(true);
          const spread = total(outcome.result.items, (it) => it.certificates[String(hold.certificateId)]?.amount ?? 0);
          expect(spread).toBe(hold.amount);
        }
        expect(outcome.holds.promoCodes.map((c) => c.code)).toEqual(outcome.result.promoCodes);
      }),
      RUNS,
    );
  });

  it('does not depend on the order of the cart lines or of the promotions', () => {
    const permuted = inputArb.chain((i) =>
      fc
        .tuple(
          fc.shuffledSubarray([...i.cart], { minLength: i.cart.length, maxLength: i.cart.length }),
          fc.shuffledSubarray([...i.promotions], { minLength: i.promotions.length, maxLength: i.promotions.length }),
          fc.shuffledSubarray([...i.products], { minLength: i.products.length, maxLength: i.products.length }),
        )
        .map(([cart, promotions, products]) => [i, { ...i, cart, promotions, products }] as const),
    );
    fc.assert(
      fc.property(permuted, ([original, shuffled]) => {
        const a = resultOf(original);
        const b = resultOf(shuffled);
        const { items: itemsA, ...topA } = a;
        const { items: itemsB, ...topB } = b;
        expect(topB).toEqual(topA);
        const byId = new Map(itemsA.map((it) => [it.productId, it]));
        for (const it of itemsB) expect(it).toEqual(byId.get(it.productId));
        expect(itemsB.map((it) => it.productId)).toEqual(shuffled.cart.map((l) => l.productId));
      }),
      RUNS,
    );
  });
});
