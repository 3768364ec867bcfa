import { describe, expect, it } from 'vitest';
import { comparePromotionOrder, stackPromotions, type PricedLine } from '../../../src/modules/checkout/domain/promotions.js';
import type { CartLine, Promotion } from '../../../src/modules/checkout/domain/types.js';
import { line, product, promotion } from './builders.js';

function priced(l: CartLine, categories: string[] | null = []): PricedLine {
  return { ...l, total: l.price * l.quantity, product: categories === null ? undefined : product(l.productId, categories) };
}

function offersOf(lines: PricedLine[], promotions: Promotion[]): readonly number[] {
  return stackPromotions(lines, [...promotions].sort(comparePromotionOrder)).offers;
}

describe('checkout promotions', () => {
  it('takes a percent off each line on its own, rounding half up', () => {
    const lines = [priced(line('A', 999)), priced(line('B', 1005))];
    // 10% of 9.99 is 0.999 → 1.00; of 10.05 is 1.005 → 1.01.
    expect(offersOf(lines, [promotion(1, { discount: { kind: 'percent', percent: 1000, per: 'line' } })])).toEqual([100, 101]);
  });

  it('takes a percent of the order once and spreads it over the lines', () => {
    const lines = [priced(line('A', 999)), priced(line('B', 1005))];
    // 10% of 20.04 is 2.004 → 2.00 (per line it would be 1.00 + 1.01), split 0.997… / 1.003… → 1.00 / 1.00.
    expect(offersOf(lines, [promotion(1, { discount: { kind: 'percent', percent: 1000, per: 'order' } })])).toEqual([100, 100]);
  });

  it('takes a fixed amount off each unit, never below zero', () => {
    const lines = [priced(line('A', 1000, 3)), priced(line('B', 150, 2))];
    expect(offersOf(lines, [promotion(1, { discount: { kind: 'fixed', amount: 200, per: 'unit' } })])).toEqual([600, 300]);
  });

  it('spreads a fixed amount per order over the matching lines, and never more than they cost', () => {
    const lines = [priced(line('A', 3000)), priced(line('B', 1000)), priced(line('C', 5000), ['other'])];
    const onAB = promotion(1, { conditions: { productIds: ['A', 'B'] }, discount: { kind: 'fixed', amount: 1000, per: 'order' } });
    expect(offersOf(lines, [onAB])).toEqual([750, 250, 0]);
    const huge = promotion(2, { conditions: { productIds: ['A', 'B'] }, discount: { kind: 'fixed', amount: 99_999, per: 'order' } });
    expect(offersOf(lines, [huge])).toEqual([3000, 1000, 0]);
  });

  it('sets a special price on listed products unless what is left is already lower', () => {
    const lines = [priced(line('A', 1000, 2)), priced(line('B', 1000))];
    const special = promotion(1, { discount: { kind: 'special_price', prices: [{ productId: 'A', price: 700 }] } });
    expect(offersOf(lines, [special])).toEqual([600, 0]);
    const half = promotion(0, { priority: 5, discount: { kind: 'percent', percent: 5000, per: 'line' } });
    // Half off first leaves 5.00 a unit, below the special 7.00: the special price adds nothing.
    expect(offersOf(lines, [special, half])).toEqual([1000, 500]);
  });

  it('leaves lines with discountable false untouched', () => {
    const lines = [priced(line('A', 1000)), priced(line('B', 1000, 1, { discountable: false }))];
    const p = promotion(1, { discount: { kind: 'fixed', amount: 1000, per: 'order' } });
    expect(offersOf(lines, [p])).toEqual([1000, 0]);
  });

  it('gives product-bound promotions nothing on a product the feed does not know', () => {
    const lines = [priced(line('X', 1000), null), priced(line('A', 1000))];
    const bound = promotion(1, { conditions: { productIds: ['X', 'A'] }, discount: { kind: 'percent', percent: 1000, per: 'line' } });
    const wide = promotion(2, { discount: { kind: 'percent', percent: 1000, per: 'line' } });
    expect(offersOf(lines, [bound])).toEqual([0, 100]);
    expect(offersOf(lines, [wide])).toEqual([100, 100]);
  });

  it('stacks promotions by priority, each on what the ones before it left', () => {
    const lines = [priced(line('A', 10_000))];
    const tenOff = promotion(1, { discount: { kind: 'percent', percent: 1000, per: 'line' } });
    const fixed = promotion(2, { priority: 1, discount: { kind: 'fixed', amount: 2000, per: 'order' } });
    // Priority 1 first: 100 − 20 = 80, then 10% of 80 = 8: 28 off in all.
    const stacked = stackPromotions(lines, [tenOff, fixed].sort(comparePromotionOrder));
    expect(stacked.effects.map((e) => e.promotion.id)).toEqual([2, 1]);
    expect(stacked.effects.map((e) => e.discounts[0])).toEqual([2000, 800]);
    expect(stacked.offers).toEqual([2800]);
    // Equal priorities: ascending id.
    expect([promotion(5), promotion(3)].sort(comparePromotionOrder).map((p) => p.id)).toEqual([3, 5]);
  });

  it('never takes more than a line costs, however many promotions stack', () => {
    const lines = [priced(line('A', 1000))];
    const all = [1, 2, 3].map((id) => promotion(id, { discount: { kind: 'fixed', amount: 600, per: 'unit' } }));
    expect(stackPromotions(lines, all).effects.map((e) => e.discounts[0])).toEqual([600, 400, 0]);
  });
});
