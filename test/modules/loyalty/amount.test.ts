import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_MINOR, parseHundredths, parsePositiveAmount, toUnits } from '../../../src/modules/loyalty/domain/amount.js';

describe('loyalty amounts', () => {
  it('turns currency units with up to two decimals into exact minor units', () => {
    expect(parsePositiveAmount(500)).toEqual({ ok: true, minor: 50_000 });
    expect(parsePositiveAmount(0.29)).toEqual({ ok: true, minor: 29 });
    expect(parsePositiveAmount(1.1)).toEqual({ ok: true, minor: 110 });
    expect(parsePositiveAmount(0.01)).toEqual({ ok: true, minor: 1 });
  });

  it('refuses zero, negatives, a fractional kopeck, non-numbers and amounts beyond the bound', () => {
    expect(parsePositiveAmount(0)).toEqual({ ok: false, requirement: 'must be greater than 0' });
    expect(parsePositiveAmount(-5)).toEqual({ ok: false, requirement: 'must be greater than 0' });
    expect(parsePositiveAmount(1.005)).toEqual({ ok: false, requirement: 'must have at most two decimals' });
    expect(parsePositiveAmount(0.001)).toEqual({ ok: false, requirement: 'must have at most two decimals' });
    expect(parsePositiveAmount(Number.NaN).ok).toBe(false);
    expect(parsePositiveAmount(Number.POSITIVE_INFINITY).ok).toBe(false);
    expect(parsePositiveAmount(MAX_AMOUNT_MINOR / 100 + 1).ok).toBe(false);
    expect(parsePositiveAmount(MAX_AMOUNT_MINOR / 100)).toEqual({ ok: true, minor: MAX_AMOUNT_MINOR });
  });

  it('round-trips every minor amount through its decimal form', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_MINOR }), (minor) => {
        const units = Number((minor / 100).toFixed(2));
        expect(parsePositiveAmount(units)).toEqual({ ok: true, minor });
        expect(toUnits(minor)).toBe(units);
      }),
    );
  });

  it('reads settings in hundredths within their bounds', () => {
    expect(parseHundredths(2.5, 0, 100)).toEqual({ ok: true, minor: 250 });
    expect(parseHundredths(0, 0, 100)).toEqual({ ok: true, minor: 0 });
    expect(parseHundredths(100.01, 0, 100)).toEqual({ ok: false, requirement: 'must be between 0 and 100' });
    expect(parseHundredths(1.234, 0, 100)).toEqual({ ok: false, requirement: 'must have at most two decimals' });
  });
});
