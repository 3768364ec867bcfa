import { describe, expect, it } from 'vitest';
import { dedupeKey, groupOf, npsOf, scoreOf, weekStart } from '../../../src/modules/nps/domain/nps.js';

describe('NPS domain', () => {
  it('groups 0–6 as detractors, 7–8 as passives and 9–10 as promoters', () => {
    expect([0, 6, 7, 8, 9, 10].map(groupOf)).toEqual(['detractor', 'detractor', 'passive', 'passive', 'promoter', 'promoter']);
  });

  it('scores percent promoters minus percent detractors, halves away from zero, null without answers', () => {
    expect(npsOf(1, 0, 8)).toBe(13); // 12.5
    expect(npsOf(0, 1, 8)).toBe(-13); // −12.5
    expect(npsOf(3, 3, 7)).toBe(0);
    expect(npsOf(0, 0, 0)).toBeNull();
  });

  it('keys a review by its order, or else by its day', () => {
    expect(dedupeKey('A-1', '2026-12-07')).toBe('o:A-1');
    expect(dedupeKey(undefined, '2026-12-07')).toBe('d:2026-12-07');
  });

  it('starts a week on Monday, also across a year', () => {
    expect(weekStart('2026-12-13')).toBe('2026-12-07');
    expect(weekStart('2026-12-07')).toBe('2026-12-07');
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });

  it('ignores counts outside the period and labels a week by its first day in the period', () => {
    const score = scoreOf(
      ['2026-12-12', '2026-12-13', '2026-12-14'],
      [
        { day: '2026-12-11', channel: 'c', category: 'k', rate: 10, count: 5 },
        { day: '2026-12-13', channel: 'c', category: 'k', rate: 10, count: 1 },
        { day: '2026-12-14', channel: 'c', category: 'k', rate: 2, count: 1 },
      ],
      'week',
    );
    expect(score.points.map((p) => [p.date, p.answered, p.nps])).toEqual([
      ['2026-12-12', 1, 100],
      ['2026-12-14', 1, -100],
    ]);
    expect(score.totals.answered).toBe(2);
  });
});
