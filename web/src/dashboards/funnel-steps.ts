import type { BarSeriesOption } from 'echarts/charts';
import type { paths } from '../api/schema';
import { PALETTE, type ChartOption, type Formats } from './options';

/**
 * A mailing's, chain's or bulk mailing's funnel (GET …/dashboard/funnels/{type}/{id},
 * docs/dashboards.md): its steps with their share of what was sent, and the chart of them.
 */

export type FunnelAnswer =
  paths['/admin/v1/shops/{shop_id}/dashboard/funnels/{type}/{id}']['get']['responses'][200]['content']['application/json'];

/** The kinds of mailing a funnel is kept for, as the API names them. */
export const FUNNEL_TYPES = ['transactional', 'chain', 'bulk'] as const;
export type FunnelType = (typeof FUNNEL_TYPES)[number];

export function isFunnelType(value: string | undefined): value is FunnelType {
  return FUNNEL_TYPES.some((type) => type === value);
}

export const STEPS = ['sent', 'delivered', 'opened', 'clicked', 'purchased'] as const;
export type Step = (typeof STEPS)[number];

export interface FunnelStep {
  readonly step: Step;
  readonly value: number;
  /** Of sent, 0 to 1; null when nothing was sent. */
  readonly ofSent: number | null;
  /** Of the step before, 0 to 1; null for the first step or after an empty one. */
  readonly ofPrevious: number | null;
}

export function funnelSteps(answer: Pick<FunnelAnswer, Step>): FunnelStep[] {
  const sent = answer.sent;
  return STEPS.map((step, i) => {
    const value = answer[step];
    const previous = i === 0 ? 0 : answer[STEPS[i - 1] as Step];
    return { step, value, ofSent: sent === 0 ? null : value / sent, ofPrevious: i === 0 || previous === 0 ? null : value / previous };
  });
}

/** Horizontal bars from sent (top) to purchased, each labelled with its count and its share of sent. */
export function funnelOption(steps: readonly FunnelStep[], label: (step: Step) => string, f: Formats): ChartOption {
  return {
    animation: false,
    color: PALETTE,
    grid: { left: 16, right: 96, top: 8, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: (n: number) => f.count(n) } },
    yAxis: { type: 'category', inverse: true, data: steps.map((s) => label(s.step)) },
    series: [
      {
        type: 'bar',
        colorBy: 'data',
        barMaxWidth: 28,
        data: steps.map((s) => ({
          value: s.value,
          label: {
            show: true,
            position: 'right',
            formatter: s.ofSent === null ? f.count(s.value) : `${f.count(s.value)} · ${f.rate(s.ofSent)}`,
          },
        })),
        tooltip: { valueFormatter: (v: unknown) => f.count(Number(v)) },
      } satisfies BarSeriesOption,
    ],
  };
}
