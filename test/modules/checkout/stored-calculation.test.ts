import { describe, expect, it } from 'vitest';
import { newCheckoutRequest, type StoredCalculation } from '../../../src/modules/checkout/checkout.types.js';
import { calculateCheckout } from '../../../src/modules/checkout/domain/calculate.js';
import type { CheckoutItem } from '../../../src/modules/checkout/domain/result.js';
import {
  readStoredCalculation,
  readStoredRequest,
  writeStoredCalculation,
  writeStoredRequest,
} from '../../../src/modules/checkout/stored-calculation.js';
import { WORKED_EXAMPLE } from './worked-example.js';

function workedCalculation(): StoredCalculation {
  const outcome = calculateCheckout(WORKED_EXAMPLE);
  if (!outcome.ok) throw new Error(outcome.problem.reason);
  return { result: outcome.result, holds: outcome.holds };
}

/** Equal, and equal as JSON: the same keys in the same order, as the answer is written. */
function expectExactly(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('stored calculation', () => {
  it('reads back exactly the calculation it wrote', () => {
    const calculation = workedCalculation();
    expectExactly(readStoredCalculation(writeStoredCalculation(calculation)), calculation);
  });

  it('writes the field names of the lines once rather than on every line', () => {
    const calculation = workedCalculation();
    const text = writeStoredCalculation(calculation);
    expect(text.split('"paidWithOffersPerProduct"')).toHaveLength(2);
    expect(text.length).toBeLessThan(0.7 * JSON.stringify(calculation).length);
  });

  it('reads a calculation stored with its lines as objects (rows written before tables) as it is', () => {
    const calculation = workedCalculation();
    expectExactly(readStoredCalculation(JSON.stringify(calculation)), calculation);
  });

  it('keeps lines of different shapes, or with an undefined field, as objects', () => {
    const calculation = workedCalculation();
    const [first, ...rest] = calculation.result.items;
    if (!first) throw new Error('no line');
    const reordered = Object.fromEntries(Object.entries(first).reverse()) as unknown as CheckoutItem;
    const { name: _name, ...shorter } = first;
    const undefinedName = { ...first, name: undefined } as unknown as CheckoutItem;
    const odds = [reordered, shorter as CheckoutItem, undefinedName].map(
      (odd): StoredCalculation => ({ ...calculation, result: { ...calculation.result, items: [first, odd, ...rest] } }),
    );
    for (const odd of odds) {
      expectExactly(readStoredCalculation(writeStoredCalculation(odd)), JSON.parse(JSON.stringify(odd)));
    }
  });

  it('reads back exactly the request it wrote, and a request stored with its cart as objects', () => {
    const request = newCheckoutRequest({
      orderId: 'o-1',
      identifier: '79001234567',
      promoCodes: ['SPRING'],
      chargeBonuses: true,
      cart: WORKED_EXAMPLE.cart,
    });
    expectExactly(readStoredRequest(writeStoredRequest(request)), request);
    expectExactly(readStoredRequest(JSON.stringify(request)), request);
    expect(writeStoredRequest(request).split('"discountable"')).toHaveLength(2);
  });
});
