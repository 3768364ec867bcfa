import { describe, expect, it } from 'vitest';
import { bonusesForMoney, rewardOverLines } from '../../../src/modules/checkout/domain/reward.js';

describe('checkout reward', () => {
  it('turns a percent of money into bonuses at the bonus value, rounded down', () => {
    // 5% of 1000.00 at one unit a bonus: 50 bonuses.
    expect(bonusesForMoney(100_000, 500, 100)).toBe(5_000);
    // At 0.50 a bonus, twice as many.
    expect(bonusesForMoney(100_000, 500, 50)).toBe(10_000);
    // 5% of 0.99 is 0.0495 → 0.04 bonus.
    expect(bonusesForMoney(99, 500, 100)).toBe(4);
    expect(bonusesForMoney(0, 500, 100)).toBe(0);
    expect(bonusesForMoney(100, 0, 100)).toBe(0);
  });

  it('computes once on the earning lines together, then spreads by largest remainder', () => {
    // 5% of 0.99 + 0.99 = 0.099: 9 hundredths together, where each line alone would round to 4.
    expect(rewardOverLines([99, 99], [true, true], ['A', 'B'], 500, 100)).toEqual([5, 4]);
  });

  it('gives lines that do not earn nothing', () => {
    expect(rewardOverLines([10_000, 10_000], [false, true], ['A', 'B'], 1_000, 100)).toEqual([0, 1_000]);
    expect(rewardOverLines([10_000], [false], ['A'], 1_000, 100)).toEqual([0]);
  });
});
