import { describe, expect, it } from 'vitest';
import { randomBytes, randomId53, randomToken } from '../src/random.js';

/** src/random.ts: identifiers from a pool of CSPRNG bytes, each byte handed out once. */
describe('pooled random identifiers', () => {
  it('gives tokens of the asked size, all different across many refills of the pool', () => {
    const seen = new Set<string>();
    // 16 bytes each: 100,000 tokens take the 4 KiB pool through some 390 refills.
    for (let i = 0; i < 100_000; i++) {
      const token = randomToken(16);
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(100_000);
  });

  it('hands out bytes that cover every value about evenly, in copies the pool does not overwrite', () => {
    const first = randomBytes(32);
    const kept = Buffer.from(first);
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 8_192; i++) for (const byte of randomBytes(32)) counts[byte]! += 1;
    expect(first.equals(kept)).toBe(true);
    // 262,144 bytes: 1,024 expected per value; a fair source stays far inside these bounds.
    expect(Math.min(...counts)).toBeGreaterThan(850);
    expect(Math.max(...counts)).toBeLessThan(1_200);
  });

  it('gives 53-bit ids: safe integers, never 0, the top bit set about half the time', () => {
    let high = 0;
    for (let i = 0; i < 20_000; i++) {
      const id = randomId53();
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThan(0);
      if (id >= 2 ** 52) high += 1;
    }
    expect(high).toBeGreaterThan(9_000);
    expect(high).toBeLessThan(11_000);
  });

  it('refuses sizes the pool does not serve', () => {
    expect(() => randomToken(0)).toThrow(RangeError);
    expect(() => randomBytes(65)).toThrow(RangeError);
  });
});
