import { describe, expect, it } from 'vitest';
import { formatUnits, isoToLocal, localToIso, parseUnits } from './money';

const rub = { currency: 'RUB', timezone: 'Europe/Moscow' };

describe('loyalty amounts and times', () => {
  it('show currency units in the shop currency, formatted for the reader', () => {
    expect(formatUnits(100, rub, 'ru').replace(/\s/g, ' ')).toBe('100,00 ₽');
    expect(formatUnits(1234.5, rub, 'en').replace(/\s/g, ' ')).toBe('RUB 1,234.50');
  });

  it('read what a person types, two decimals at most', () => {
    expect(parseUnits('100')).toBe(100);
    expect(parseUnits('1 000,50')).toBe(1000.5);
    expect(parseUnits('99.9')).toBe(99.9);
    expect(parseUnits('1.234')).toBeNull();
    expect(parseUnits('ten')).toBeNull();
    expect(parseUnits('')).toBeNull();
  });

  it('read a wall-clock time in the shop zone and back', () => {
    expect(localToIso('2026-03-01T10:00', 'Europe/Moscow')).toBe('2026-03-01T07:00:00.000Z');
    expect(localToIso('2026-07-01T10:00', 'Europe/Berlin')).toBe('2026-07-01T08:00:00.000Z');
    expect(localToIso('2026-01-01T10:00', 'Europe/Berlin')).toBe('2026-01-01T09:00:00.000Z');
    expect(isoToLocal('2026-03-01T07:00:00.000Z', 'Europe/Moscow')).toBe('2026-03-01T10:00');
    expect(localToIso('yesterday', 'UTC')).toBeNull();
  });
});
