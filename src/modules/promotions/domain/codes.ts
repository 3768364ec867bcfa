/**
 * Promo code and certificate code text (docs/promotions.md, "Codes"): letters A–Z,
 * digits, `-` and `_`, 1 to 64 characters, case-insensitive. Codes are stored upper
 * case, so that `sale10` typed at the till finds `SALE10` through the unique index
 * rather than through a case-folding scan.
 */

export const MAX_CODE_LENGTH = 64;
const CODE = /^[A-Z0-9_-]{1,64}$/;
/** The schema's pattern of a code an admin sends (either case). */
export const CODE_PATTERN_TEXT = '^[A-Za-z0-9_-]{1,64}$';

/** The stored form of a code, or null when the text cannot be a code (a lookup of it finds nothing). */
export function normalizeCode(text: string): string | null {
  if (text.length > MAX_CODE_LENGTH + 2) return null;
  const upper = text.trim().toUpperCase();
  return CODE.test(upper) ? upper : null;
}
