import { describe, expect, it } from 'vitest';
import { RenderBudget } from '../../../src/modules/messaging/domain/render-budget.js';

describe('render budget per shop', () => {
  it('admits a shop while its balance is above zero, and refuses it until the render time it overspent is repaid', () => {
    const budget = new RenderBudget(500);
    expect(budget.admit('a', 0)).toBe(0);
    budget.charge('a', 300, 0);
    expect(budget.admit('a', 0)).toBe(0);
    budget.charge('a', 500, 0);
    // 300 ms below zero at 500 ms a second: 601 ms until the balance is above zero again.
    expect(budget.admit('a', 0)).toBe(Math.ceil((301 / 500) * 1000));
    expect(budget.admit('a', 602)).toBe(0);
  });

  it('saves up at most a second of render time', () => {
    const budget = new RenderBudget(500);
    budget.charge('a', 100, 0);
    // An hour idle refills to 500, not more: 500 and then 1 ms more is overspent.
    budget.charge('a', 501, 3_600_000);
    expect(budget.admit('a', 3_600_000)).toBeGreaterThan(0);
  });

  it("spreads a shop's refused renders one slot apart, a slot being its last render's time repaid", () => {
    const budget = new RenderBudget(500);
    budget.charge('a', 999, 0);
    const waits = [budget.admit('a', 0), budget.admit('a', 0), budget.admit('a', 0)];
    // Repaid after 1000 ms; then each slot is 999 ms of render time at 500 ms a second, 1998 ms.
    expect(waits).toEqual([1000, 2998, 4996]);
  });

  it("keeps each shop's balance to itself", () => {
    const budget = new RenderBudget(500);
    budget.charge('a', 2_000, 0);
    expect(budget.admit('a', 0)).toBeGreaterThan(0);
    expect(budget.admit('b', 0)).toBe(0);
  });
});
