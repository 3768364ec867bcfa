/**
 * Paid subscriptions' promos benefits in the checkout (docs/subscriptions.md, "In the
 * checkout"). Pure: given what each promotion took off each line and the member's promos
 * benefits with what is left of them this period, decide which benefit promotions apply
 * and cap them, and say what the order must hold of each benefit.
 *
 * Rules:
 * - A promotion named by a benefit applies only through a benefit (`benefitOnly`): with
 *   no grant of it, its discount is 0.
 * - A promotion named by several grants counts against the first grant (in the order
 *   given) that names it.
 * - An order that takes a discount through a benefit uses that benefit once; a benefit
 *   with no use left gives nothing.
 * - A benefit's promotions together take at most its `savingsLeft`: they are capped in
 *   the order they applied (earlier ones keep theirs first), a capped promotion's
 *   remaining amount spread over its lines in proportion to what it took off each
 *   (largest remainder, so the parts add up exactly and never exceed the original).
 * Capping only lowers discounts, so every line still stays between zero and its total.
 */
import { distribute, sum } from './money.js';
import type { StackedOffers } from './promotions.js';
import type { BenefitGrant } from './types.js';

/** One promotion's discount per cart line, in the order promotions applied. */
export interface PromotionLineDiscounts {
  readonly promotionId: number;
  /** Minor units off each line, ≥ 0. */
  readonly discounts: readonly number[];
}

/** What the order must hold of one benefit (SubscriptionUsageService.hold's amounts). */
export interface BenefitTake {
  readonly benefit: string;
  readonly savings: number;
  readonly uses: number;
}

export interface CappedDiscounts {
  /** The same promotions in the same order, with capped discounts. */
  readonly effects: readonly PromotionLineDiscounts[];
  /** One per grant that gave something; none for grants that gave nothing. */
  readonly takes: readonly BenefitTake[];
}

export function capBenefitDiscounts(
  effects: readonly PromotionLineDiscounts[],
  grants: readonly BenefitGrant[],
  benefitOnly: ReadonlySet<number>,
  keys: readonly string[],
): CappedDiscounts {
  const owner = new Map<number, number>();
  grants.forEach((g, k) => {
    for (const id of g.promotionIds) if (!owner.has(id)) owner.set(id, k);
  });
  const budget = grants.map((g) => (g.usageLeft >= 1 ? Math.max(0, g.savingsLeft) : 0));
  const given = grants.map(() => 0);
  const capped = effects.map((effect): PromotionLineDiscounts => {
    const k = owner.get(effect.promotionId);
    if (k === undefined) {
      return benefitOnly.has(effect.promotionId) ? { ...effect, discounts: effect.discounts.map(() => 0) } : effect;
    }
    const total = sum(effect.discounts);
    const allowed = Math.min(total, budget[k] ?? 0);
    budget[k] = (budget[k] ?? 0) - allowed;
    given[k] = (given[k] ?? 0) + allowed;
    if (allowed === total) return effect;
    return { ...effect, discounts: allowed === 0 ? effect.discounts.map(() => 0) : distribute(allowed, effect.discounts, keys) };
  });
  const takes = grants.flatMap((g, k) => ((given[k] ?? 0) > 0 ? [{ benefit: g.benefit, savings: given[k] ?? 0, uses: 1 }] : []));
  return { effects: capped, takes };
}

/**
 * capBenefitDiscounts over the stacked promotions of a calculation: the same effects with
 * capped discounts and the offers of each line summed again from them.
 */
export function capStackedOffers(
  stacked: StackedOffers,
  grants: readonly BenefitGrant[],
  benefitOnly: ReadonlySet<number>,
  keys: readonly string[],
): { readonly stacked: StackedOffers; readonly takes: readonly BenefitTake[] } {
  const capped = capBenefitDiscounts(
    stacked.effects.map((e) => ({ promotionId: e.promotion.id, discounts: e.discounts })),
    grants,
    benefitOnly,
    keys,
  );
  const effects = stacked.effects.map((e, k) => ({ ...e, discounts: capped.effects[k]?.discounts ?? e.discounts }));
  const offers = stacked.offers.map((_, i) => sum(effects.map((e) => e.discounts[i] ?? 0)));
  return { stacked: { offers, effects }, takes: capped.takes };
}
