import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeFrom, compilePattern, DIGITS, hasRoomFor, LETTERS } from '../../../src/modules/promotions/domain/code-pattern.js';
import { normalizeCode } from '../../../src/modules/promotions/domain/codes.js';

function compiled(text: string) {
  const result = compilePattern(text);
  if (!result.ok) throw new Error(result.message);
  return result.pattern;
}

describe('code patterns', () => {
  it('counts the space of digits, letters and either, without look-alikes', () => {
    expect(DIGITS).not.toMatch(/[01]/);
    expect(LETTERS).not.toMatch(/[IOL]/);
    expect(compiled('SALE-####').space).toBe(8 ** 4);
    expect(compiled('??').space).toBe(LETTERS.length ** 2);
    expect(compiled('*').space).toBe(DIGITS.length + LETTERS.length);
    expect(compiled('sale-#').slots).toBe(1);
  });

  it('refuses an empty pattern, one without a random position and one with a foreign character', () => {
    expect(compilePattern('')).toMatchObject({ ok: false });
    expect(compilePattern('SALE')).toMatchObject({ ok: false, message: 'Field `pattern` must have at least one `#`, `?` or `*`.' });
    expect(compilePattern('SALE #')).toMatchObject({ ok: false });
    expect(compilePattern('#'.repeat(65))).toMatchObject({ ok: false });
  });

  it('wants a space ten times the count', () => {
    const p = compiled('###');
    expect(hasRoomFor(p, 51)).toBe(true);
    expect(hasRoomFor(p, 52)).toBe(false);
    expect(hasRoomFor(compiled('?'.repeat(40)), 100_000)).toBe(true);
  });

  it('makes codes of the pattern: literals kept upper case, digits and letters from their alphabets', () => {
    const p = compiled('sale-##??-*');
    const random = new Uint32Array(crypto.randomBytes(4 * p.slots * 500).buffer);
    for (let i = 0; i < 500; i += 1) {
      expect(codeFrom(p, random, i * p.slots)).toMatch(/^SALE-[2-9]{2}[A-HJKMNP-Z]{2}-[2-9A-HJKMNP-Z]$/);
    }
  });

  it('is a function of the random values: the same values give the same code', () => {
    const p = compiled('##-??');
    const random = Uint32Array.from([0, 9, 1, 24]);
    expect(codeFrom(p, random, 0)).toBe(`${DIGITS[0]}${DIGITS[1]}-${LETTERS[1]}${LETTERS[24 % LETTERS.length]}`);
  });
});

describe('code patterns (property)', () => {
  const patternText = fc
    .array(fc.constantFrom('#', '?', '*', 'A', 'z', '7', '-', '_'), { minLength: 1, maxLength: 64 })
    .map((chars) => chars.join(''))
    .filter((text) => /[#?*]/.test(text));

  it('makes only codes that match the pattern and are valid codes, with a space that is the product of its alphabets', () => {
    fc.assert(
      fc.property(patternText, fc.uint32Array({ minLength: 64, maxLength: 64 }), (text, random) => {
        const p = compiled(text);
        const code = codeFrom(p, random, 0);
        const expected = [...text.toUpperCase()]
          .map((ch) => (ch === '#' ? `[${DIGITS}]` : ch === '?' ? `[${LETTERS}]` : ch === '*' ? `[${DIGITS}${LETTERS}]` : ch))
          .join('');
        expect(code).toMatch(new RegExp(`^${expected}$`));
        expect(normalizeCode(code)).toBe(code);
        const slots = [...text].filter((ch) => '#?*'.includes(ch)).length;
        expect(p.slots).toBe(slots);
        if (p.space !== Infinity) expect(p.space).toBeGreaterThanOrEqual(DIGITS.length ** slots);
      }),
    );
  });
});

describe('normalizeCode', () => {
  it('upper-cases and trims a code, and refuses text that cannot be one', () => {
    expect(normalizeCode(' sale10 ')).toBe('SALE10');
    expect(normalizeCode('Gift_1-a')).toBe('GIFT_1-A');
    expect(normalizeCode('')).toBeNull();
    expect(normalizeCode('x'.repeat(65))).toBeNull();
    expect(normalizeCode('x'.repeat(10_000))).toBeNull();
    expect(normalizeCode('скидка')).toBeNull();
    expect(normalizeCode('a b')).toBeNull();
  });
});
