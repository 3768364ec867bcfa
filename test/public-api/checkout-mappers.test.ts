import { describe, expect, it } from 'vitest';
import { calculateCheckout } from '../../src/modules/checkout/domain/calculate.js';
import type { CheckoutResult } from '../../src/modules/checkout/domain/result.js';
import { checkoutJson, ResultPayload, resultBody, resultJson } from '../../src/public-api/checkout/checkout.mappers.js';
import { WORKED_EXAMPLE } from '../modules/checkout/worked-example.js';

function workedResult(): CheckoutResult {
  const outcome = calculateCheckout(WORKED_EXAMPLE);
  if (!outcome.ok) throw new Error(outcome.problem.reason);
  return outcome.result;
}

const base = { orderId: 'o-1', identifier: '79001234567', paymentType: 'card' };

describe('the checkout result written without an object in between', () => {
  it('equals JSON.stringify of resultBody byte for byte on the worked example', () => {
    const answer = { ...base, result: workedResult() };
    expect(resultJson(answer)).toBe(JSON.stringify(resultBody(answer)));
  });

  it('equals it with a referrer, a missing order id, escaped strings, pooled and unpooled certificates and several promotions per line', () => {
    const r = workedResult();
    const first = r.items[0]!;
    const result: CheckoutResult = {
      ...r,
      referrerIdentifier: 'ref "quoted" \\ \u2028 ключ',
      referralProgram: 3,
      bonusesReferrerReward: 1_234,
      promoCodesFailed: [{ code: 'A"B', reason: 'unknown', message: 'Promo code is not found\n' }],
      items: [
        {
          ...first,
          name: 'Name with "quotes", </script> and \u0000',
          productId: 'p\t1',
          bonusesRewardPromotions: { 12: { total: 5, perProduct: 3 }, 7: { total: 1, perProduct: 1 }, x: { total: 0, perProduct: 0 } },
          certificates: { 4: { id: 4, code: 'GIFT', poolId: 2, amount: 101, amountPerProduct: 51 }, 9: { id: 9, code: 'G2', poolId: null, amount: 1, amountPerProduct: 1 } },
        },
        ...r.items.slice(1),
      ],
    };
    const answer = { ...base, orderId: null, result };
    expect(resultJson(answer)).toBe(JSON.stringify(resultBody(answer)));
  });

  it('answers a result in the status envelope as JSON.stringify would, and anything else by JSON.stringify', () => {
    const answer = { ...base, result: workedResult() };
    const serialize = checkoutJson();
    expect(serialize({ status: 'success', payload: new ResultPayload(answer) })).toBe(JSON.stringify({ status: 'success', payload: resultBody(answer) }));
    const duplicate = { status: 'success', payload: { message: 'Cart contains line items with the same product ID', identifier: 'x' } };
    expect(serialize(duplicate)).toBe(JSON.stringify(duplicate));
    const error = { status: 'error', payload: { message: 'Order is not found' } };
    expect(serialize(error)).toBe(JSON.stringify(error));
  });
});
