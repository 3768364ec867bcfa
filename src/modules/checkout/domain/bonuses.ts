/**
 * How many bonuses pay for an order, and for which lines (docs/checkout.md "Bonuses").
 *
 * Bonuses are counted in hundredths of a bonus and one bonus pays `bonusValue`
 * hundredths of a currency unit (minor units), so a hundredth of a bonus pays
 * bonusValue / 100 minor units. Bonuses are charged in whole steps in which both sides
 * are whole: `stepBonuses` hundredths of a bonus pay `stepMoney` minor units exactly
 * (bonus value 1: one hundredth of a bonus pays one kopeck; 0.33: a whole bonus pays 33
 * kopecks). Nothing is rounded in anyone's favour.
 */
import { distribute, gcd, mulDivFloor, sum } from './money.js';

export interface BonusStep {
  readonly stepBonuses: number;
  readonly stepMoney: number;
}

/** The smallest exchange of whole hundredths of a bonus for whole minor units. */
export function bonusStep(bonusValue: number): BonusStep {
  const common = gcd(bonusValue, 100);
  return { stepBonuses: 100 / common, stepMoney: bonusValue / common };
}

export interface BonusRequest {
  /** What is left of each line after promotions, minor units. */
  readonly left: readonly number[];
  readonly bonusable: readonly boolean[];
  readonly keys: readonly string[];
  /** Hundredths of a bonus; null: no member, so no bonuses. */
  readonly balance: number | null;
  /** Hundredths of a percent of each line's remainder that bonuses may pay. */
  readonly maxSharePercent: number;
  readonly bonusValue: number;
  readonly charge: boolean;
  /** Hundredths of a bonus the buyer wants charged at most; null: as many as allowed. */
  readonly amount: number | null;
}

export interface BonusPlan {
  /** Bonuses the order could take at most, whether charged or not (`order_bonuses_to_charge`). */
  readonly maxBonuses: number;
  /** Bonuses charged. */
  readonly chargedBonuses: number;
  /** Per line: money bonuses may pay at most. */
  readonly capMoney: readonly number[];
  /** Per line: money paid by bonuses. */
  readonly money: readonly number[];
  /** Per line: bonuses charged. */
  readonly bonuses: readonly number[];
}

/**
 * The limits, each of them binding: only bonusable lines; on each line at most
 * `maxSharePercent` of what promotions left of it (rounded down to a whole step); in all
 * at most the balance; when charged, at most `amount`. The charge is spread over the
 * lines in proportion to their caps (largest remainder, in whole steps), so no line pays
 * more than its cap.
 */
export function planBonuses(request: BonusRequest): BonusPlan {
  const { stepBonuses, stepMoney } = bonusStep(request.bonusValue);
  const member = request.balance !== null;
  const capSteps = request.left.map((left, i) => {
    if (!member || !request.bonusable[i]) return 0;
    return Math.floor(mulDivFloor(left, request.maxSharePercent, 10_000) / stepMoney);
  });
  const balanceSteps = Math.floor((request.balance ?? 0) / stepBonuses);
  const maxSteps = Math.min(sum(capSteps), balanceSteps);
  let chargeSteps = request.charge ? maxSteps : 0;
  if (request.amount !== null) chargeSteps = Math.min(chargeSteps, Math.floor(request.amount / stepBonuses));
  const steps = distribute(chargeSteps, capSteps, request.keys);
  return {
    maxBonuses: maxSteps * stepBonuses,
    chargedBonuses: chargeSteps * stepBonuses,
    capMoney: capSteps.map((s) => s * stepMoney),
    money: steps.map((s) => s * stepMoney),
    bonuses: steps.map((s) => s * stepBonuses),
  };
}
