import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../../src/modules/shopper-view/domain/dates.js';
import { decimalText } from '../../../src/public-api/shopper/shopper.mappers.js';

describe('startOfDayIn', () => {
  it('is the first instant of the date in the timezone', () => {
    expect(new Date(startOfDayIn('2026-01-17', 'Europe/Moscow')).toISOString()).toBe('2026-01-16T21:00:00.000Z');
    expect(new Date(startOfDayIn('2026-01-17', 'UTC')).toISOString()).toBe('2026-01-17T00:00:00.000Z');
    expect(new Date(startOfDayIn('2026-01-17', 'America/New_York')).toISOString()).toBe('2026-01-17T05:00:00.000Z');
  });

  it('follows a change of offset on that date (summer time starts at 02:00 in New York)', () => {
    expect(new Date(startOfDayIn('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(startOfDayIn('2026-03-09', 'America/New_York')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    // Midnight itself is skipped on this date in Santiago: the day starts at 01:00.
    expect(new Date(startOfDayIn('2026-09-06', 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('decimalText', () => {
  it('spells minor units as the platform’s decimal strings', () => {
    expect(decimalText(850_000)).toBe('8500.0');
    expect(decimalText(1205)).toBe('12.05');
    expect(decimalText(1250)).toBe('12.5');
    expect(decimalText(0)).toBe('0.0');
    expect(decimalText(7)).toBe('0.07');
    expect(decimalText(null)).toBeNull();
  });
});
