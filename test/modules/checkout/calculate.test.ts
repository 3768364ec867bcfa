import { describe, expect, it } from 'vitest';
import { calculateCheckout } from '../../../src/modules/checkout/domain/calculate.js';
import type { CheckoutItem, CheckoutOutcome } from '../../../src/modules/checkout/domain/result.js';
import type { CheckoutInput } from '../../../src/modules/checkout/domain/types.js';
import { certificate, code, input, line, member, product, promotion } from './builders.js';
import { WORKED_EXAMPLE } from './worked-example.js';

function calculated(i: CheckoutInput) {
  const outcome: CheckoutOutcome = calculateCheckout(i);
  if (!outcome.ok) throw new Error(`expected a result, got ${outcome.problem.reason}`);
  return outcome;
}

function item(items: readonly CheckoutItem[], productId: string): CheckoutItem {
  const found = items.find((it) => it.productId === productId);
  if (!found) throw new Error(`no item ${productId}`);
  return found;
}

describe('checkout calculation: the worked example of docs/checkout.md', () => {
  const { result, holds } = calculated(WORKED_EXAMPLE);

  it('answers the order figures', () => {
    expect(result).toMatchObject({
      productsTotal: 7,
      orderTotal: 137_997,
      savedByOffers: 20_000,
      savedByDiscounts: 0,
      savedByBonuses: 10_000,
      savedByCertificates: 5_000,
      savedTotal: 35_000,
      orderToPay: 102_997,
      orderBonusesToCharge: 10_000,
      bonusesBalance: 10_000,
      bonusesReward: 5_390,
      bonusesReferrerReward: 0,
      referrerIdentifier: null,
      referralProgram: null,
      appliedPromotions: [7, 9, 12],
      rewardedStickers: {},
      usedStickers: {},
      stickersBalance: {},
      promoCodes: ['SPRING'],
      promoCodesFailed: [{ code: 'OLD', reason: 'expired', message: 'Promo code has expired' }],
      certificates: ['GIFT-1'],
      certificatesFailed: [{ code: 'NOPE', reason: 'unknown', message: 'Certificate is not found' }],
    });
    expect(result.items.map((it) => it.productId)).toEqual(['A-coffee', 'B-mug', 'C-wrap', 'X-1']);
  });

  it('answers every field of the coffee line', () => {
    expect(item(result.items, 'A-coffee')).toEqual({
      productId: 'A-coffee',
      name: 'Coffee beans 1 kg',
      quantity: 2,
      price: 50_000,
      total: 100_000,
      discountable: true,
      bonusable: true,
      rewardable: true,
      paidWithOffers: 17_317,
      paidWithOffersPerProduct: 8_659,
      paidWithReferralDiscounts: 0,
      paidWithReferralDiscountsPerProduct: 0,
      paidWithDiscounts: 0,
      paidWithDiscountsPerProduct: 0,
      paidWithBonuses: 7_317,
      paidWithBonusesPerProduct: 3_659,
      paidWithCertificates: 3_489,
      paidWithCertificatesPerProduct: 1_745,
      bonusesReward: 3_593,
      bonusesRewardPerProduct: 1_797,
      bonusesRewardLoyaltyProgram: { total: 3_593, perProduct: 1_797 },
      bonusesRewardReferralProgram: { total: 0, perProduct: 0 },
      bonusesRewardPromotions: {},
      certificates: { '4': { id: 4, code: 'GIFT-1', poolId: 2, amount: 3_489, amountPerProduct: 1_745 } },
      bonusesUsed: 7_317,
      bonusesUsedPerProduct: 3_659,
      totalAfterDiscounts: 71_877,
      totalAfterDiscountsPerProduct: 35_939,
      maxPayableByBonuses: 41_341,
    });
  });

  it('answers the other lines as the page works them out', () => {
    const pick = (it: CheckoutItem) => [
      it.paidWithOffers,
      it.paidWithBonuses,
      it.paidWithCertificates,
      it.totalAfterDiscounts,
      it.bonusesReward,
    ];
    expect(pick(item(result.items, 'B-mug'))).toEqual([2_439, 2_439, 1_163, 23_956, 1_677]);
    expect(pick(item(result.items, 'C-wrap'))).toEqual([0, 0, 232, 4_768, 0]);
    expect(pick(item(result.items, 'X-1'))).toEqual([244, 244, 116, 2_396, 120]);
    const mug = item(result.items, 'B-mug');
    expect(mug.bonusesRewardLoyaltyProgram).toEqual({ total: 1_198, perProduct: 399 });
    expect(mug.bonusesRewardPromotions).toEqual({ '12': { total: 479, perProduct: 160 } });
    expect(mug.totalAfterDiscountsPerProduct).toBe(7_985);
    expect(item(result.items, 'X-1').name).toBe('---');
  });

  it('tells the service what to hold', () => {
    expect(holds).toEqual({
      bonuses: 10_000,
      certificates: [{ certificateId: 4, code: 'GIFT-1', amount: 5_000 }],
      promoCodes: [{ code: 'SPRING', promotionId: 9 }],
    });
  });
});

describe('checkout calculation rules', () => {
  it('refuses a cart it cannot answer', () => {
    const problem = (i: CheckoutInput) => {
      const outcome = calculateCheckout(i);
      return outcome.ok ? null : outcome.problem;
    };
    expect(problem(input({ cart: [] }))).toEqual({ reason: 'empty_cart' });
    expect(problem(input({ cart: [line('A', 100), line('A', 200)] }))).toEqual({ reason: 'duplicate_product', productId: 'A' });
    expect(problem(input({ cart: [line('A', 0)] }))).toEqual({ reason: 'invalid_line', index: 0, field: 'price' });
    expect(problem(input({ cart: [line('A', 100), line('B', 100, -1)] }))).toEqual({ reason: 'invalid_line', index: 1, field: 'quantity' });
    expect(problem(input({ cart: [line('A', 100, 1.5)] }))).toEqual({ reason: 'invalid_line', index: 0, field: 'quantity' });
    expect(problem(input({ cart: [line('A', 1e12, 10_000)] }))).toEqual({ reason: 'invalid_line', index: 0, field: 'total' });
    expect(problem(input({ cart: [line('A', 6e14), line('B', 6e14)] }))).toEqual({ reason: 'order_too_large' });
    expect(problem(input({ chargeBonuses: true }))).toEqual({ reason: 'member_required' });
    expect(problem(input({ bonusesAmount: -1 }))).toEqual({ reason: 'invalid_bonuses_amount' });
    expect(problem(input({ member: member({ balance: 500 }), chargeBonuses: true, bonusesAmount: 501 }))).toEqual({
      reason: 'bonuses_amount_above_balance',
      balance: 500,
    });
    expect(problem(input({ member: member({ balance: 500 }), chargeBonuses: true, bonusesAmount: 500 }))).toBeNull();
  });

  it('rewards the level’s percent before the programme’s, on the money paid, and only a member', () => {
    const settings = { rewardPercent: 500, maxBonusSharePercent: 10_000, bonusValue: 100 };
    const cart = [line('A', 10_000)];
    expect(calculated(input({ cart, settings, member: member() })).result.bonusesReward).toBe(500);
    expect(calculated(input({ cart, settings, member: member({ rewardPercent: 1_000 }) })).result.bonusesReward).toBe(1_000);
    expect(calculated(input({ cart, settings })).result.bonusesReward).toBe(0);
    // Bonuses pay 40.00 of it: the reward is 5% of the 60.00 paid.
    const paid = calculated(input({ cart, settings, member: member({ balance: 4_000 }), chargeBonuses: true })).result;
    expect(paid.bonusesReward).toBe(300);
  });

  it('gives a non-member no bonuses and no balance, yet applies promotions and certificates', () => {
    const { result } = calculated(
      input({
        promotions: [promotion(1, { discount: { kind: 'percent', percent: 1_000, per: 'line' } })],
        certificates: [certificate('GIFT', 1, 1_000)],
      }),
    );
    expect(result).toMatchObject({
      bonusesBalance: 0,
      orderBonusesToCharge: 0,
      savedByOffers: 1_000,
      savedByCertificates: 1_000,
      orderToPay: 8_000,
    });
  });

  it('fails a valid code whose promotion ends up changing nothing, and holds no use of it', () => {
    const outcome = calculated(
      input({
        cart: [line('A', 1_000, 1, { discountable: false })],
        promotions: [promotion(3, { byPromoCode: true, discount: { kind: 'fixed', amount: 100, per: 'order' } })],
        promoCodes: [code('ZERO', 3)],
      }),
    );
    expect(outcome.result.promoCodesFailed).toEqual([
      { code: 'ZERO', reason: 'conditions_not_met', message: 'Order does not meet the promo code conditions' },
    ]);
    expect(outcome.result.appliedPromotions).toEqual([]);
    expect(outcome.holds.promoCodes).toEqual([]);
  });

  it('applies a promotion that needs a code only through one', () => {
    const promotions = [promotion(3, { byPromoCode: true, discount: { kind: 'fixed', amount: 100, per: 'order' } })];
    expect(calculated(input({ promotions })).result.savedByOffers).toBe(0);
    expect(calculated(input({ promotions, promoCodes: [code('GO', 3)] })).result.savedByOffers).toBe(100);
  });

  it('counts a reward-only promotion as applied when it rewards a member, and not otherwise', () => {
    const promotions = [promotion(5, { bonusRewardPercent: 1_000 })];
    expect(calculated(input({ promotions, member: member() })).result).toMatchObject({ appliedPromotions: [5], bonusesReward: 1_000 });
    expect(calculated(input({ promotions })).result).toMatchObject({ appliedPromotions: [], bonusesReward: 0 });
  });

  it('checks promotion conditions against the request: stream, payment type and current_time', () => {
    const promotions = [
      promotion(1, {
        conditions: { streams: ['pos'], paymentTypes: ['cash'], timeOfDay: { from: 17 * 60, to: 19 * 60 } },
        discount: { kind: 'fixed', amount: 100, per: 'order' },
      }),
    ];
    const base = { promotions, stream: 'pos', paymentType: 'cash' };
    expect(calculated(input({ ...base, currentTime: '17:31' })).result.savedByOffers).toBe(100);
    // 15:00 in Moscow when current_time is malformed.
    expect(calculated(input({ ...base, currentTime: '25:99' })).result.savedByOffers).toBe(0);
    expect(calculated(input({ ...base, currentTime: '17:31', stream: 'web' })).result.savedByOffers).toBe(0);
  });

  it('names products from the feed and the unknown ones ---', () => {
    const { result } = calculated(input({ cart: [line('A', 100), line('Z', 100)], products: [product('A', [], 'Tea')] }));
    expect(result.items.map((it) => it.name)).toEqual(['Tea', '---']);
  });
});
