import { describe, expect, it } from 'vitest';
import { currencySymbol } from '../../../src/modules/shops/domain/currency.js';

describe('currencySymbol', () => {
  it.each([
    ['RUB', '₽'],
    ['USD', '$'],
    ['EUR', '€'],
    ['KZT', '₸'],
    ['UAH', '₴'],
    ['GBP', '£'],
  ])('gives the narrow symbol of %s: %s', (code, symbol) => {
    expect(currencySymbol(code)).toBe(symbol);
  });

  it('falls back to the code itself when ICU has no symbol for it', () => {
    expect(currencySymbol('BYN')).toBe('BYN');
    expect(currencySymbol('ABC')).toBe('ABC');
  });

  it('falls back to the input for a malformed code instead of throwing', () => {
    expect(currencySymbol('RU')).toBe('RU');
    expect(currencySymbol('')).toBe('');
  });
});
