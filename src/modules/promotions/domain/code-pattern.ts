/**
 * Patterns of generated promo codes (docs/promotions.md, "Generation"): `#` is a digit
 * and `?` a letter, `*` either, from alphabets without look-alikes (no 0/O, 1/I/L);
 * every other character stands for itself (letters, digits, `-`, `_`; upper-cased). The
 * randomness comes from the caller, so this stays pure and a test can replay it.
 */

export const DIGITS = '23456789';
export const LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ';
export const MIXED = DIGITS + LETTERS;
const SLOTS: Readonly<Record<string, string>> = { '#': DIGITS, '?': LETTERS, '*': MIXED };

export const MAX_PATTERN_LENGTH = 64;
/** The space of a pattern must be this many times the count asked for, so collisions stay rare. */
export const SPACE_FACTOR = 10;

/** A position of a pattern: a literal character, or the alphabet a random one is drawn from. */
export type PatternPart = { readonly literal: string } | { readonly alphabet: string };

export interface CodePattern {
  readonly parts: readonly PatternPart[];
  /** How many random positions. */
  readonly slots: number;
  /** How many distinct codes the pattern can make (Infinity past 2^53). */
  readonly space: number;
}

export type CompiledPattern = { readonly ok: true; readonly pattern: CodePattern } | { readonly ok: false; readonly message: string };

export function compilePattern(text: string): CompiledPattern {
  if (text.length === 0 || text.length > MAX_PATTERN_LENGTH) {
    return { ok: false, message: `Field \`pattern\` must be 1 to ${MAX_PATTERN_LENGTH} characters.` };
  }
  const parts: PatternPart[] = [];
  let space = 1;
  let slots = 0;
  for (const ch of text.toUpperCase()) {
    const alphabet = SLOTS[ch];
    if (alphabet) {
      parts.push({ alphabet });
      space *= alphabet.length;
      slots += 1;
    } else if (/^[A-Z0-9_-]$/.test(ch)) {
      parts.push({ literal: ch });
    } else {
      return { ok: false, message: 'Field `pattern` may hold only `#`, `?`, `*`, letters, digits, `-` and `_`.' };
    }
  }
  if (slots === 0) return { ok: false, message: 'Field `pattern` must have at least one `#`, `?` or `*`.' };
  return { ok: true, pattern: { parts, slots, space: Number.isSafeInteger(space) ? space : Infinity } };
}

/** Whether the pattern leaves room for `count` codes: SPACE_FACTOR times over. */
export function hasRoomFor(pattern: CodePattern, count: number): boolean {
  return pattern.space >= count * SPACE_FACTOR;
}

/**
 * One code from the pattern, drawing one 32-bit random value per random position from
 * `random` starting at `offset` (the modulo bias of 2^32 over an alphabet of 31 is below 10^-8).
 */
export function codeFrom(pattern: CodePattern, random: Uint32Array, offset: number): string {
  let code = '';
  let i = offset;
  for (const part of pattern.parts) {
    if ('alphabet' in part) {
      code += part.alphabet[(random[i] ?? 0) % part.alphabet.length];
      i += 1;
    } else {
      code += part.literal;
    }
  }
  return code;
}
