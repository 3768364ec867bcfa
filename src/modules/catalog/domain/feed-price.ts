/**
 * Feed prices to integer minor units (kopecks), exactly from their decimal spelling:
 * "1990.50" is 199050 and "1.005" is 101 (half up at the third decimal), never through
 * binary floating point. Pure.
 */
import { toMinorUnits } from '../../tracking/index.js';

export type PriceResult =
  | { readonly ok: true; readonly minor: number }
  | { readonly ok: false; readonly reason: 'negative' | 'not_a_number' | 'too_large' };

// Digits, an optional fraction after a dot or a comma (Russian feeds write "1990,50"),
// and white space (thin and no-break spaces included) between groups of thousands.
const DECIMAL = /^(\d+)(?:[.,](\d*))?$/;

/** A price as a feed spells it: a decimal string, or a number from a JSON feed. */
export function parseFeedPrice(value: string | number): PriceResult {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, reason: 'not_a_number' };
    if (value < 0) return { ok: false, reason: 'negative' };
    const minor = toMinorUnits(value);
    return minor === undefined ? { ok: false, reason: 'too_large' } : { ok: true, minor };
  }
  const text = value.replace(/[\s\u00A0\u2009\u202F]/g, '');
  if (text.startsWith('-')) {
    return DECIMAL.test(text.slice(1)) ? { ok: false, reason: 'negative' } : { ok: false, reason: 'not_a_number' };
  }
  const match = DECIMAL.exec(text.startsWith('+') ? text.slice(1) : text);
  if (!match) return { ok: false, reason: 'not_a_number' };
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const kopecks = (fraction + '00').slice(0, 2);
  const roundUp = (fraction.charCodeAt(2) || 0) >= 0x35; // third decimal is 5..9
  if (whole.replace(/^0+/, '').length > 15) return { ok: false, reason: 'too_large' };
  const minor = Number(whole) * 100 + Number(kopecks) + (roundUp ? 1 : 0);
  return Number.isSafeInteger(minor) ? { ok: true, minor } : { ok: false, reason: 'too_large' };
}

/** The reason recorded for an offer skipped for its price. */
export function priceSkipReason(reason: 'negative' | 'not_a_number' | 'too_large'): string {
  switch (reason) {
    case 'negative':
      return 'price is negative';
    case 'not_a_number':
      return 'price is not a number';
    case 'too_large':
      return 'price is too large';
  }
}
