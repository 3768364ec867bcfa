/**
 * The bonuses an order earns (docs/checkout.md "Reward"): a percent of the money the
 * buyer actually pays on the lines that earn, turned into bonuses at the programme's
 * bonus value. The programme's part uses the member's level percent (or the programme's
 * when the member has no level); each promotion in play with a `bonusRewardPercent`
 * adds its own part on the lines it covers.
 */
import { distribute, sum } from './money.js';

/**
 * Bonuses (hundredths) that `percent` (hundredths of a percent) of `money` (minor units)
 * is worth, one bonus paying `bonusValue` minor units: money × percent / 10000 minor
 * units, ÷ (bonusValue / 100) per hundredth of a bonus, rounded down: a reward is never
 * more than its percent promises. Exact (BigInt).
 */
export function bonusesForMoney(money: number, percent: number, bonusValue: number): number {
  if (money <= 0 || percent <= 0 || bonusValue <= 0) return 0;
  return Number((BigInt(money) * BigInt(percent)) / (100n * BigInt(bonusValue)));
}

/**
 * One reward over lines: computed once on the sum of the earning lines' money (so that
 * splitting a cart into lines never loses a bonus to rounding), then spread over those
 * lines in proportion to their money, largest remainder.
 */
export function rewardOverLines(
  money: readonly number[],
  earns: readonly boolean[],
  keys: readonly string[],
  percent: number,
  bonusValue: number,
): number[] {
  const base = money.map((m, i) => (earns[i] ? m : 0));
  const total = bonusesForMoney(sum(base), percent, bonusValue);
  return distribute(total, base, keys);
}
