import { describe, expect, it } from 'vitest';
import {
  checkSplit,
  HELD,
  holdsRest,
  pickWinner,
  templatesOfVariant,
  throttleSlot,
  variantOf,
  type AbSplit,
} from '../../../src/modules/bulk/domain/bulk-mailing.js';
import { capPeriods, isoWeek, minutesToQuietEnd, quietUntil } from '../../../src/modules/bulk/domain/limits.js';

const split: AbSplit = {
  test_share: 30,
  variants: [
    { share: 40, email: { subject: 'A' } },
    { share: 60, email: { subject: 'B' } },
  ],
  metric: 'opens',
  after_hours: 1,
};

describe('bulk A/B split', () => {
  it('puts the test share of every hundred members in the test, split exactly by the shares, and holds the rest', () => {
    const names = Array.from({ length: 1000 }, (_, i) => variantOf(i, split));
    expect(names.filter((n) => n === 'a')).toHaveLength(120);
    expect(names.filter((n) => n === 'b')).toHaveLength(180);
    expect(names.filter((n) => n === HELD)).toHaveLength(700);
    expect(variantOf(5, null)).toBe('');
    expect(holdsRest(split)).toBe(true);
    expect(holdsRest({ ...split, test_share: 100 })).toBe(false);
    expect(checkSplit(split)).toBeNull();
    expect(checkSplit({ ...split, variants: [{ share: 60 }, { share: 41 }] })).toBe(
      'The shares of `ab.variants` add up to 101; they must add up to 100.',
    );
    expect(checkSplit({ ...split, variants: [{ share: 30 }, { share: 30 }] })).toMatch(/add up to 60;/);
  });

  it('alternates the variants in a small test rather than giving the first members all to a', () => {
    const four: AbSplit = { ...split, test_share: 100, variants: [{ share: 25 }, { share: 25 }, { share: 25 }, { share: 25 }] };
    expect(
      Array.from({ length: 4 }, (_, i) => variantOf(i, { ...split, test_share: 100, variants: [{ share: 50 }, { share: 50 }] })),
    ).toEqual(['a', 'b', 'a', 'b']);
    const counts = new Map<string, number>();
    for (let i = 0; i < 100; i += 1) counts.set(variantOf(i, four), (counts.get(variantOf(i, four)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ a: 25, b: 25, c: 25, d: 25 });
  });

  it('lays a variant over the templates field by field', () => {
    const templates = { email: { subject: 'Base', html: '<p>x</p>' }, sms: { body: 'hi' } };
    expect(templatesOfVariant(templates, split, 'b')).toEqual({ email: { subject: 'B', html: '<p>x</p>' }, sms: { body: 'hi' } });
    expect(templatesOfVariant(templates, split, '')).toEqual(templates);
  });

  it('picks the best rate, the first on a tie', () => {
    expect(
      pickWinner([
        { variant: 'a', messaged: 10, hits: 2 },
        { variant: 'b', messaged: 4, hits: 1 },
      ]),
    ).toBe('b');
    expect(
      pickWinner([
        { variant: 'a', messaged: 10, hits: 1 },
        { variant: 'b', messaged: 10, hits: 1 },
      ]),
    ).toBe('a');
    expect(
      pickWinner([
        { variant: 'a', messaged: 0, hits: 0 },
        { variant: 'b', messaged: 3, hits: 0 },
      ]),
    ).toBe('a');
  });

  it('spaces throttled recipients a minute per batch', () => {
    expect([0, 1, 2, 3, 4].map((n) => throttleSlot(1000, n, 2, 1000))).toEqual([1000, 1000, 61_000, 61_000, 121_000]);
    expect(throttleSlot(1000, 9, null, 5000)).toBe(5000);
  });
});

describe('caps and quiet hours', () => {
  it('names ISO weeks across year ends', () => {
    expect(isoWeek('2026-01-01')).toBe('2026-W01');
    expect(isoWeek('2027-01-01')).toBe('2026-W53');
    expect(isoWeek('2024-12-30')).toBe('2025-W01');
    expect(isoWeek('2026-03-15')).toBe('2026-W11');
  });

  it('counts in the shop time zone calendar', () => {
    // 22:30 UTC on Sunday is already Monday in Moscow.
    expect(capPeriods(Date.UTC(2026, 2, 15, 22, 30), 'Europe/Moscow')).toEqual({ day: 'd:2026-03-16', week: 'w:2026-W12' });
    expect(capPeriods(Date.UTC(2026, 2, 15, 22, 30), 'UTC')).toEqual({ day: 'd:2026-03-15', week: 'w:2026-W11' });
  });

  it('waits to the end of a window, wrapping midnight', () => {
    const night = { from: 22 * 60, to: 8 * 60 };
    expect(minutesToQuietEnd(23 * 60, night)).toBe(9 * 60);
    expect(minutesToQuietEnd(7 * 60 + 59, night)).toBe(1);
    expect(minutesToQuietEnd(8 * 60, night)).toBe(0);
    expect(minutesToQuietEnd(12 * 60, { from: 12 * 60, to: 13 * 60 })).toBe(60);
    expect(quietUntil(Date.UTC(2026, 2, 9, 20, 30, 15), 'Europe/Moscow', night)).toBe(Date.UTC(2026, 2, 10, 5, 0));
    expect(quietUntil(Date.UTC(2026, 2, 9, 12, 0), 'Europe/Moscow', night)).toBe(Date.UTC(2026, 2, 9, 12, 0));
  });
});
