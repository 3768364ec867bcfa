import { describe, expect, it } from 'vitest';
import type { Translate } from '../i18n/i18n';
import type { Score } from './nps.queries';
import { scoreChart } from './score-chart';

const t: Translate = (key) => key;
const zero = { answered: 0, promoters: 0, passives: 0, detractors: 0, nps: null };

describe('scoreChart', () => {
  it('stacks the answers by group and breaks the score line where nobody answered', () => {
    const score: Score = {
      date_from: '2026-12-07',
      date_to: '2026-12-08',
      timezone: 'Europe/Moscow',
      interval: 'day',
      points: [
        { date: '2026-12-07', answered: 3, promoters: 2, passives: 0, detractors: 1, nps: 33 },
        { date: '2026-12-08', ...zero },
      ],
      totals: { answered: 3, promoters: 2, passives: 0, detractors: 1, nps: 33 },
      channels: [],
      categories: [],
    };
    const chart = scoreChart(score, t);
    expect(chart.days).toEqual(['2026-12-07', '2026-12-08']);
    expect(chart.series.map((s) => [s.key, s.values])).toEqual([
      ['promoters', [2, 0]],
      ['passives', [0, 0]],
      ['detractors', [1, 0]],
      ['nps', [33, 0]],
    ]);
    expect(chart.gaps).toEqual([false, true]);
    expect(chart.series.filter((s) => s.stacked).map((s) => s.key)).toEqual(['promoters', 'passives', 'detractors']);
  });
});
