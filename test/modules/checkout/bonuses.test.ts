import { describe, expect, it } from 'vitest';
import { bonusStep, planBonuses, type BonusRequest } from '../../../src/modules/checkout/domain/bonuses.js';

const base: BonusRequest = {
  left: [10_000, 5_000],
  bonusable: [true, true],
  keys: ['A', 'B'],
  balance: 1_000_000,
  maxSharePercent: 10_000,
  bonusValue: 100,
  charge: true,
  amount: null,
};

describe('checkout bonuses', () => {
  it('exchanges bonuses for money in the smallest exact step', () => {
    expect(bonusStep(100)).toEqual({ stepBonuses: 1, stepMoney: 1 });
    expect(bonusStep(50)).toEqual({ stepBonuses: 2, stepMoney: 1 });
    expect(bonusStep(150)).toEqual({ stepBonuses: 2, stepMoney: 3 });
    expect(bonusStep(33)).toEqual({ stepBonuses: 100, stepMoney: 33 });
    expect(bonusStep(1000)).toEqual({ stepBonuses: 1, stepMoney: 10 });
  });

  it('pays up to everything left when the share is 100% and the balance suffices', () => {
    const plan = planBonuses(base);
    expect(plan).toMatchObject({ maxBonuses: 15_000, chargedBonuses: 15_000, money: [10_000, 5_000], bonuses: [10_000, 5_000] });
  });

  it('keeps to the balance, spread over the lines in proportion to their caps', () => {
    const plan = planBonuses({ ...base, balance: 3_000 });
    expect(plan).toMatchObject({ maxBonuses: 3_000, chargedBonuses: 3_000, money: [2_000, 1_000] });
  });

  it('keeps each line to max_bonus_share_percent of what promotions left of it, rounded down', () => {
    const plan = planBonuses({ ...base, left: [999, 5_000], maxSharePercent: 5_000 });
    expect(plan.capMoney).toEqual([499, 2_500]);
    expect(plan.money).toEqual([499, 2_500]);
  });

  it('pays nothing for lines that are not bonusable', () => {
    const plan = planBonuses({ ...base, bonusable: [false, true] });
    expect(plan).toMatchObject({ maxBonuses: 5_000, money: [0, 5_000], capMoney: [0, 5_000] });
  });

  it('charges no more than bonuses_amount, and nothing unless asked, yet tells the maximum', () => {
    expect(planBonuses({ ...base, amount: 1_500 })).toMatchObject({ maxBonuses: 15_000, chargedBonuses: 1_500, money: [1_000, 500] });
    expect(planBonuses({ ...base, charge: false })).toMatchObject({
      maxBonuses: 15_000,
      chargedBonuses: 0,
      money: [0, 0],
      bonuses: [0, 0],
    });
  });

  it('offers nothing without a member', () => {
    expect(planBonuses({ ...base, balance: null })).toMatchObject({ maxBonuses: 0, chargedBonuses: 0, capMoney: [0, 0] });
  });

  it('converts at the bonus value in whole steps: a bonus worth 0.33 pays 33 kopecks per whole bonus', () => {
    // 3 bonuses (300 hundredths) at 0.33 pay 0.99; 2.50 bonuses cannot be charged, 2 are.
    const plan = planBonuses({ ...base, left: [10_000, 0], bonusValue: 33, balance: 250 });
    expect(plan).toMatchObject({ maxBonuses: 200, chargedBonuses: 200, money: [66, 0], bonuses: [200, 0] });
    const capped = planBonuses({ ...base, left: [100, 0], bonusValue: 33, balance: 1_000_000 });
    expect(capped).toMatchObject({ maxBonuses: 300, money: [99, 0] });
  });

  it('converts at a bonus value of 2: one hundredth of a bonus pays two kopecks', () => {
    const plan = planBonuses({ ...base, bonusValue: 200, balance: 1_000 });
    expect(plan).toMatchObject({ maxBonuses: 1_000, money: [1_334, 666], bonuses: [667, 333] });
  });
});
