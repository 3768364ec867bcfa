import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateCheckout } from '../../../src/modules/checkout/domain/calculate.js';
import { sum } from '../../../src/modules/checkout/domain/money.js';
import { capBenefitDiscounts, type PromotionLineDiscounts } from '../../../src/modules/checkout/domain/subscription-benefits.js';
import type { BenefitGrant } from '../../../src/modules/checkout/domain/types.js';

import { input, line, member, promotion } from './builders.js';

const KEYS = ['A', 'B', 'C'];

describe('capping benefit promotions', () => {
  const effects: PromotionLineDiscounts[] = [
    { promotionId: 1, discounts: [100_00, 50_00, 0] },
    { promotionId: 2, discounts: [30_00, 0, 20_00] },
    { promotionId: 3, discounts: [10_00, 10_00, 10_00] },
  ];

  it('leaves promotions no benefit names as they are', () => {
    const capped = capBenefitDiscounts(effects, [], new Set(), KEYS);
    expect(capped).toEqual({ effects, takes: [] });
  });

  it('takes nothing from a benefit-only promotion the member has no grant of', () => {
    const capped = capBenefitDiscounts(effects, [], new Set([2]), KEYS);
    expect(capped.effects[1]?.discounts).toEqual([0, 0, 0]);
    expect(capped.effects[0]).toBe(effects[0]);
  });

  it('caps a benefit at its savings left, earlier promotions first, spread over the lines', () => {
    const grant: BenefitGrant = { benefit: 'plus', promotionIds: [1, 2], savingsLeft: 160_00, usageLeft: 2 };
    const capped = capBenefitDiscounts(effects, [grant], new Set([1, 2]), KEYS);
    expect(capped.effects[0]?.discounts).toEqual([100_00, 50_00, 0]);
    // 10.00 left of 50.00: split 30:20.
    expect(capped.effects[1]?.discounts).toEqual([6_00, 0, 4_00]);
    expect(capped.effects[2]).toBe(effects[2]);
    expect(capped.takes).toEqual([{ benefit: 'plus', savings: 160_00, uses: 1 }]);
  });

  it('gives nothing through a benefit without uses left', () => {
    const grant: BenefitGrant = { benefit: 'plus', promotionIds: [1], savingsLeft: 1000_00, usageLeft: 0 };
    const capped = capBenefitDiscounts(effects, [grant], new Set([1]), KEYS);
    expect(capped.effects[0]?.discounts).toEqual([0, 0, 0]);
    expect(capped.takes).toEqual([]);
  });

  it('counts a promotion two benefits name against the first', () => {
    const grants: BenefitGrant[] = [
      { benefit: 'a', promotionIds: [3], savingsLeft: 10_00, usageLeft: 1 },
      { benefit: 'b', promotionIds: [3], savingsLeft: 1000_00, usageLeft: 1 },
    ];
    const capped = capBenefitDiscounts(effects, grants, new Set([3]), KEYS);
    expect(sum(capped.effects[2]?.discounts ?? [])).toBe(10_00);
    expect(capped.takes).toEqual([{ benefit: 'a', savings: 10_00, uses: 1 }]);
  });
});

describe('capping benefit promotions: properties', () => {
  const lines = 4;
  const keys = ['p0', 'p1', 'p2', 'p3'];
  const effectsArb = fc
    .uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc
            .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: lines, maxLength: lines })
            .map((d) => ({ promotionId: id, discounts: d })),
        ),
      ),
    );
  const grantsArb = fc.array(
    fc.record({
      benefit: fc.constantFrom('a', 'b', 'c'),
      promotionIds: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 4 }),
      savingsLeft: fc.integer({ min: 0, max: 3_000_000 }),
      usageLeft: fc.integer({ min: 0, max: 3 }),
    }),
    { maxLength: 3 },
  );
  const onlyArb = fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 8 }).map((ids) => new Set(ids));

  it('never exceeds a benefit’s savings or uses left, never raises a line, and accounts exactly', () => {
    fc.assert(
      fc.property(effectsArb, grantsArb, onlyArb, (effects, grants, only) => {
        const { effects: capped, takes } = capBenefitDiscounts(effects, grants, only, keys);
        expect(capped.map((e) => e.promotionId)).toEqual(effects.map((e) => e.promotionId));
        const owner = new Map<number, number>();
        grants.forEach((g, k) => g.promotionIds.forEach((id) => owner.has(id) || owner.set(id, k)));
        const given = grants.map(() => 0);
        capped.forEach((e, i) => {
          const original = effects[i]!;
          e.discounts.forEach((d, line) => {
            expect(d).toBeGreaterThanOrEqual(0);
            expect(d).toBeLessThanOrEqual(original.discounts[line]!);
          });
          const k = owner.get(e.promotionId);
          if (k === undefined) {
            expect(e.discounts).toEqual(only.has(e.promotionId) ? original.discounts.map(() => 0) : original.discounts);
          } else {
            given[k]! += sum(e.discounts);
          }
        });
        grants.forEach((g, k) => {
          const take = takes.find((t) => t.benefit === g.benefit && t.savings === given[k]);
          expect(given[k]).toBeLessThanOrEqual(g.usageLeft >= 1 ? g.savingsLeft : 0);
          if (given[k]! > 0) expect(take?.uses).toBe(1);
        });
        expect(sum(takes.map((t) => t.savings))).toBe(sum(given));
        expect(takes.length).toBe(given.filter((x) => x > 0).length);
      }),
    );
  });

  it('changes nothing when every benefit has room for all its promotions give', () => {
    fc.assert(
      fc.property(effectsArb, (effects) => {
        const ids = effects.map((e) => e.promotionId);
        const grant: BenefitGrant = {
          benefit: 'a',
          promotionIds: ids,
          savingsLeft: sum(effects.map((e) => sum(e.discounts))),
          usageLeft: 1,
        };
        const { effects: capped } = capBenefitDiscounts(effects, [grant], new Set(ids), keys);
        expect(capped.map((e) => e.discounts)).toEqual(effects.map((e) => e.discounts));
      }),
    );
  });
});

describe('the calculation with subscription benefits', () => {
  // A 10% promotion (1) only for subscribers, and 5.00 off the order for everyone (2).
  const promotions = [
    promotion(1, { discount: { kind: 'percent', percent: 1000, per: 'line' }, priority: 1 }),
    promotion(2, { discount: { kind: 'fixed', amount: 5_00, per: 'order' } }),
  ];
  const cart = [line('A', 300_00), line('B', 100_00, 2)];
  const calculate = (grants: { savingsLeft: number; usageLeft: number }[] | undefined) => {
    const outcome = calculateCheckout(
      input({
        cart,
        member: member(),
        promotions,
        ...(grants && {
          benefits: { grants: grants.map((g) => ({ benefit: 'plus', promotionIds: [1], ...g })), benefitOnly: new Set([1]) },
        }),
      }),
    );
    if (!outcome.ok) throw new Error('refused');
    return outcome;
  };

  it('is unchanged, with no benefit holds, when the input has no benefits', () => {
    const outcome = calculate(undefined);
    expect(outcome.result.appliedPromotions).toEqual([1, 2]);
    expect(outcome.holds.benefits).toBeUndefined();
  });

  it('leaves a benefit-only promotion out for a member without the benefit', () => {
    const outcome = calculate([]);
    expect(outcome.result.appliedPromotions).toEqual([2]);
    expect(outcome.result.savedByOffers).toBe(5_00);
    expect(outcome.holds.benefits).toEqual([]);
  });

  it('applies it in full within the limits and holds one use of the savings', () => {
    const outcome = calculate([{ savingsLeft: 1000_00, usageLeft: 3 }]);
    expect(outcome.result.appliedPromotions).toEqual([1, 2]);
    expect(outcome.result.savedByOffers).toBe(50_00 + 5_00);
    expect(outcome.holds.benefits).toEqual([{ benefit: 'plus', savings: 50_00, uses: 1 }]);
  });

  it('caps it at the savings left, the rest of the order paying the difference', () => {
    const outcome = calculate([{ savingsLeft: 20_00, usageLeft: 1 }]);
    expect(outcome.holds.benefits).toEqual([{ benefit: 'plus', savings: 20_00, uses: 1 }]);
    expect(outcome.result.savedByOffers).toBe(20_00 + 5_00);
    expect(outcome.result.orderToPay).toBe(500_00 - 25_00);
    expect(sum(outcome.result.items.map((i) => i.paidWithOffers))).toBe(25_00);
  });

  it('gives nothing through a benefit with no use left', () => {
    const outcome = calculate([{ savingsLeft: 1000_00, usageLeft: 0 }]);
    expect(outcome.result.appliedPromotions).toEqual([2]);
    expect(outcome.holds.benefits).toEqual([]);
  });
});
