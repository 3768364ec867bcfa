import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusSuccess } from '../../src/http/envelopes.js';
import { calculateCheckout } from '../../src/modules/checkout/domain/calculate.js';
import type { CheckoutResult } from '../../src/modules/checkout/domain/result.js';
import type { CheckoutInput } from '../../src/modules/checkout/domain/types.js';
import { answerPayload } from '../../src/public-api/checkout/checkout.mappers.js';
import { checkoutAnswerSerializer } from '../../src/public-api/checkout/checkout.serializer.js';
import { inputArb } from '../modules/checkout/arbitraries.js';
import { WORKED_EXAMPLE } from '../modules/checkout/worked-example.js';

/** The compiled serialiser of the checkout answers writes byte for byte what JSON.stringify writes. */

const ok = checkoutAnswerSerializer({ httpStatus: '200' });

function resultOf(input: CheckoutInput): CheckoutResult {
  const outcome = calculateCheckout(input);
  if (!outcome.ok) throw new Error(`unexpected problem ${outcome.problem.reason}`);
  return outcome.result;
}

function body(result: CheckoutResult, identifier = '79000000001') {
  return statusSuccess({ payload: answerPayload({ ok: true, orderId: 'o-1', identifier, paymentType: 'card', result }) });
}

describe('checkout answer serialiser', () => {
  it('writes the worked example as JSON.stringify does, every field and in the same order', () => {
    const answer = body(resultOf(WORKED_EXAMPLE));
    expect(answer.payload).toHaveProperty('items.0.certificates');
    expect(ok(answer)).toBe(JSON.stringify(answer));
  });

  it('writes a referrer, a guest and a certificate without a pool', () => {
    const result = resultOf(WORKED_EXAMPLE);
    const referred: CheckoutResult = {
      ...result,
      referrerIdentifier: 'ref-7',
      referralProgram: 3,
      items: result.items.map((it) => ({
        ...it,
        certificates: Object.fromEntries(Object.entries(it.certificates).map(([k, c]) => [k, { ...c, poolId: null }])),
      })),
    };
    for (const answer of [body(referred), body(referred, '')]) expect(ok(answer)).toBe(JSON.stringify(answer));
  });

  it('escapes names, codes and identifiers as JSON.stringify does', () => {
    const tricky = [
      'quote " and \\ backslash',
      'line\nbreak\ttab\u0000nul\u001f',
      'sep \u2028 \u2029',
      'lone \ud800 surrogate \udfff',
      'emoji 🎁 and кириллица',
      '</script><b>',
    ];
    const result = resultOf(WORKED_EXAMPLE);
    for (const text of tricky) {
      const named: CheckoutResult = {
        ...result,
        referrerIdentifier: text,
        promoCodes: [text],
        promoCodesFailed: [{ code: text, message: text, reason: 'unknown' }],
        items: result.items.map((it) => ({ ...it, name: text, productId: text })),
      };
      const answer = body(named, text);
      expect(ok(answer), text).toBe(JSON.stringify(answer));
    }
  });

  it('writes any calculated result as JSON.stringify does', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const outcome = calculateCheckout(input);
        if (!outcome.ok) return;
        const answer = body(outcome.result);
        expect(ok(answer)).toBe(JSON.stringify(answer));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the duplicate-product answer and the errors to JSON.stringify', () => {
    const duplicate = statusSuccess({ payload: answerPayload({ ok: false, duplicateProductId: 'p1', identifier: '79000000001' }) });
    expect(ok(duplicate)).toBe(JSON.stringify(duplicate));
    const error = { status: 'error', message: 'Shop not found' };
    expect(checkoutAnswerSerializer({ httpStatus: '4xx' })(error)).toBe(JSON.stringify(error));
  });
});
