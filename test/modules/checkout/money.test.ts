import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distribute, gcd, mulDivFloor, mulDivRoundHalfUp, perUnit } from '../../../src/modules/checkout/domain/money.js';

describe('checkout money', () => {
  it('multiplies and divides exactly, rounding down or half up', () => {
    expect(mulDivFloor(999, 1000, 10_000)).toBe(99);
    expect(mulDivRoundHalfUp(999, 1000, 10_000)).toBe(100);
    expect(mulDivRoundHalfUp(5, 1, 10)).toBe(1);
    expect(mulDivRoundHalfUp(4, 1, 10)).toBe(0);
    // Beyond 2^53 in the middle of the computation: still exact.
    expect(mulDivFloor(999_999_999_999_999, 5_000, 10_000)).toBe(499_999_999_999_999);
    expect(mulDivRoundHalfUp(999_999_999_999_999, 5_000, 10_000)).toBe(500_000_000_000_000);
  });

  it('agrees with exact rational arithmetic on any amounts', () => {
    fc.assert(
      // As the checkout uses it: a fraction b / c of at most one (a percent, a share).
      fc.property(fc.nat(1_000_000_000_000_000), fc.nat(10_000), fc.integer({ min: 1, max: 1_000_000 }), (a, b, rawC) => {
        const c = Math.max(rawC, b, 1);
        const exact = BigInt(a) * BigInt(b);
        expect(BigInt(mulDivFloor(a, b, c))).toBe(exact / BigInt(c));
        expect(BigInt(mulDivRoundHalfUp(a, b, c))).toBe((2n * exact + BigInt(c)) / (2n * BigInt(c)));
      }),
    );
  });

  it('gives the per-unit figure rounded half up', () => {
    expect(perUnit(100, 3)).toBe(33);
    expect(perUnit(200, 3)).toBe(67);
    expect(perUnit(3, 2)).toBe(2);
    expect(perUnit(0, 7)).toBe(0);
  });

  it('finds the greatest common divisor', () => {
    expect(gcd(150, 100)).toBe(50);
    expect(gcd(33, 100)).toBe(1);
    expect(gcd(100, 100)).toBe(100);
  });

  it('splits by largest remainder and breaks equal remainders by key, not by position', () => {
    expect(distribute(100, [1, 1, 1], ['a', 'b', 'c'])).toEqual([34, 33, 33]);
    expect(distribute(100, [1, 1, 1], ['c', 'b', 'a'])).toEqual([33, 33, 34]);
    expect(distribute(10_000, [90_000, 29_997, 3000], ['A', 'B', 'X'])).toEqual([7317, 2439, 244]);
    expect(distribute(5, [0, 3, 0], ['a', 'b', 'c'])).toEqual([0, 5, 0]);
    expect(distribute(0, [0, 0], ['a', 'b'])).toEqual([0, 0]);
  });

  it('refuses to spread a positive amount over nothing', () => {
    expect(() => distribute(1, [0, 0], ['a', 'b'])).toThrow(RangeError);
  });

  const weightsArb = fc.array(fc.nat(1_000_000_000_000), { minLength: 1, maxLength: 30 }).filter((w) => w.some((x) => x > 0));

  it('parts add up exactly, stay within one of their quota and never exceed their weight', () => {
    fc.assert(
      fc.property(weightsArb, fc.nat(1_000_000_000_000_000), (weights, rawTotal) => {
        const weightSum = weights.reduce((s, w) => s + w, 0);
        const total = rawTotal % (weightSum + 1);
        const keys = weights.map((_, i) => `k${i}`);
        const parts = distribute(total, weights, keys);
        expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
        parts.forEach((p, i) => {
          const exact = (BigInt(total) * BigInt(weights[i]!)) / BigInt(weightSum);
          expect(BigInt(p) === exact || BigInt(p) === exact + 1n).toBe(true);
          expect(p).toBeLessThanOrEqual(weights[i]!);
          expect(p).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });

  it('does not depend on the order of its inputs', () => {
    // Small equal weights and small totals: ties are the common case.
    const tiny = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 8 });
    fc.assert(
      fc.property(fc.oneof(tiny, weightsArb), fc.oneof(fc.nat(20), fc.nat(1_000_000)), fc.nat(), (weights, total, seed) => {
        const keys = weights.map((_, i) => `k${i}`);
        const order = weights.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 101) - ((b * 7919 + seed) % 101));
        const straight = distribute(total, weights, keys);
        const shuffled = distribute(
          total,
          order.map((i) => weights[i]!),
          order.map((i) => keys[i]!),
        );
        order.forEach((original, position) => expect(shuffled[position]).toBe(straight[original]));
      }),
    );
  });
});
