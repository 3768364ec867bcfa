import { describe, expect, it } from 'vitest';
import { formatAt } from './dates';

describe('formatAt', () => {
  it('shows an instant in the given zone, naming it', () => {
    expect(formatAt('2026-01-02T21:30:00.000Z', 'Europe/Moscow', 'en')).toMatch(/Jan 3, 2026.*12:30:00\s?AM.*GMT\+3/);
  });

  it('falls back to UTC without a zone', () => {
    expect(formatAt('2026-01-02T21:30:00.000Z', null, 'en')).toMatch(/Jan 2, 2026.*9:30:00\s?PM.*UTC/);
  });

  it('gives back what is not a date as it came', () => {
    expect(formatAt('not a date', null, 'en')).toBe('not a date');
  });
});
