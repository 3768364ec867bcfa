import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  codeFromBytes,
  normalizeReferralCode,
  referrerRewardFor,
} from '../../../src/modules/loyalty/domain/referral.js';

describe('referrerRewardFor', () => {
  it('pays a fixed reward whatever the total', () => {
    expect(referrerRewardFor({ type: 'fixed', value: 150_50 }, 1, 100)).toBe(150_50);
    expect(referrerRewardFor({ type: 'fixed', value: 150_50 }, 1_000_000_00, 250)).toBe(150_50);
  });

  it('pays a percent of the total in bonuses at the bonus value, rounded down to a bonus kopeck', () => {
    // 2.5% of 1 234.56 = 30.864 → 30.86.
    expect(referrerRewardFor({ type: 'percent', value: 250 }, 1_234_56, 100)).toBe(30_86);
    // 10% of 1 000.00 = 100.00 currency units; at 2.00 a bonus: 50.00 bonuses.
    expect(referrerRewardFor({ type: 'percent', value: 1000 }, 1_000_00, 200)).toBe(50_00);
    // At 0.50 a bonus the same 100.00 is 200.00 bonuses.
    expect(referrerRewardFor({ type: 'percent', value: 1000 }, 1_000_00, 50)).toBe(200_00);
    expect(referrerRewardFor({ type: 'percent', value: 1000 }, 0, 100)).toBe(0);
  });

  it('never pays more than the percent promises, and less by under a bonus kopeck, exactly even for the largest amounts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (total, percent, bonusValue) => {
          const reward = referrerRewardFor({ type: 'percent', value: percent }, total, bonusValue);
          expect(Number.isSafeInteger(reward)).toBe(true);
          // reward ≤ total × percent / 10000 / (bonusValue / 100) < reward + 1, compared exactly.
          const exact = BigInt(total) * BigInt(percent) * 100n;
          const unit = 10_000n * BigInt(bonusValue);
          expect(BigInt(reward) * unit <= exact).toBe(true);
          expect((BigInt(reward) + 1n) * unit > exact).toBe(true);
        },
      ),
    );
  });
});

describe('referral codes', () => {
  it('makes codes of the unambiguous alphabet, and reads a typed code without case, spaces or dashes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), (bytes) => {
        const code = codeFromBytes(bytes);
        expect(code).toHaveLength(CODE_LENGTH);
        for (const ch of code) expect(CODE_ALPHABET).toContain(ch);
        expect(normalizeReferralCode(` ${code.slice(0, 4).toLowerCase()}-${code.slice(4)} `)).toBe(code);
      }),
    );
    expect(CODE_ALPHABET).not.toMatch(/[01IOL]/);
  });
});
