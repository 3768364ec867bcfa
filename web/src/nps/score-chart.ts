import type { Translate } from '../i18n/i18n';
import { PALETTE } from '../dashboards/options';
import type { DayChart } from '../dashboards/series';
import type { Score } from './nps.queries';

/**
 * The score's chart (pure): the answers of each day or week as stacked bars (promoters,
 * passives, detractors) and the score as a line on its own axis. A point without answers
 * has no score: `gaps` marks it, so that the line is broken there instead of drawn at 0.
 * Promoters are green, passives grey and detractors red, whatever order a legend puts them in.
 */
export function scoreChart(score: Score, t: Translate): DayChart & { readonly gaps: readonly boolean[] } {
  const points = score.points;
  return {
    days: points.map((p) => p.date),
    gaps: points.map((p) => p.nps === null),
    series: [
      {
        key: 'promoters',
        color: PALETTE[2],
        label: t('nps.score.promoters'),
        kind: 'count',
        values: points.map((p) => p.promoters),
        type: 'bar',
        stacked: true,
        additive: true,
      },
      {
        key: 'passives',
        color: PALETTE[8],
        label: t('nps.score.passives'),
        kind: 'count',
        values: points.map((p) => p.passives),
        type: 'bar',
        stacked: true,
        additive: true,
      },
      {
        key: 'detractors',
        color: PALETTE[4],
        label: t('nps.score.detractors'),
        kind: 'count',
        values: points.map((p) => p.detractors),
        type: 'bar',
        stacked: true,
        additive: true,
      },
      {
        key: 'nps',
        color: PALETTE[3],
        label: t('nps.score.nps'),
        kind: 'count',
        values: points.map((p) => p.nps ?? 0),
        type: 'line',
        axis: 1,
        additive: false,
      },
    ],
  };
}
