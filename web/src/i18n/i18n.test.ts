import { describe, expect, it } from 'vitest';
import { en } from './en';
import { formatDateTime, formatDay, formatMinorAmount, minorUnitDigits } from './format';
import { initialLanguage, interpolate } from './language';
import { ru } from './ru';

describe('the translation tables', () => {
  it('give every key a non-empty text in both languages, with the same {marks}', () => {
    const marks = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(ru[key].trim(), key).not.toBe('');
      expect(marks(ru[key]), key).toEqual(marks(en[key]));
    }
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
  });

  it('pick the stored choice, else the browser language, else English', () => {
    expect(initialLanguage('ru', ['en-US'])).toBe('ru');
    expect(initialLanguage(null, ['de-DE', 'ru-RU', 'en'])).toBe('ru');
    expect(initialLanguage('xx', ['fr'])).toBe('en');
  });

  it('fill marks and leave a mark without a value visible', () => {
    expect(interpolate('Delete {code}?', { code: 'a_b' })).toBe('Delete a_b?');
    expect(interpolate('Delete {code}?', {})).toBe('Delete {code}?');
  });
});

describe("dates and amounts in the shop's zone and currency", () => {
  const moscow = { timezone: 'Europe/Moscow', currency: 'RUB' };

  it("shows an instant at the shop's wall-clock time", () => {
    // 21:30 UTC is 00:30 the next day in Moscow (UTC+3).
    expect(formatDateTime('2026-03-01T21:30:00.000Z', moscow, 'en')).toMatch(/Mar 2, 2026.*12:30:00\s?AM/);
    expect(formatDateTime('2026-03-01T21:30:00.000Z', { ...moscow, timezone: 'America/New_York' }, 'en')).toMatch(
      /Mar 1, 2026.*4:30:00\s?PM/,
    );
  });

  it('shows a calendar day as that day, whatever the zone of the reader', () => {
    expect(formatDay('2026-12-31', 'en')).toBe('December 31, 2026');
  });

  it('turns minor units into the currency amount by its own exponent', () => {
    expect(minorUnitDigits('RUB')).toBe(2);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(formatMinorAmount(123456, { ...moscow, currency: 'USD' }, 'en')).toBe('$1,234.56');
    expect(formatMinorAmount(500, { ...moscow, currency: 'JPY' }, 'en')).toBe('¥500');
    expect(formatMinorAmount(99, moscow, 'ru').replace(/\s/g, ' ')).toBe('0,99 ₽');
  });
});
