import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { ShopLocale } from '../i18n/format';
import type { Translate } from '../i18n/i18n';
import type { Language } from '../i18n/language';
import type { DayChart, Kind, Series } from './series';

/**
 * ECharts options and the words that stand for them (a chart's summary for screen
 * readers), built from a DayChart. Pure, and type-only imports of ECharts: the library
 * itself is loaded by echart.tsx, in the charts' lazy chunk only.
 */

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** How the charts write numbers, amounts, rates and days: the reader's language, the shop's currency. */
export interface Formats {
  readonly count: (n: number) => string;
  readonly money: (n: number) => string;
  /** Short, for an axis: `1,2 тыс. ₽`. */
  readonly moneyAxis: (n: number) => string;
  /** 0 to 1 as a percentage; "—" for no rate (nothing was sent). */
  readonly rate: (r: number | null) => string;
  /** A date of the shop's zone as a short axis label (`Mar 2`), never moved across zones. */
  readonly day: (date: string) => string;
  /** The same, in full (`March 2, 2026`), for summaries and tables. */
  readonly longDay: (date: string) => string;
}

function utcDate(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}

export function formatsFor(shop: ShopLocale, language: Language): Formats {
  const count = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const money = new Intl.NumberFormat(language, { style: 'currency', currency: shop.currency });
  const moneyAxis = new Intl.NumberFormat(language, { style: 'currency', currency: shop.currency, notation: 'compact' });
  const rate = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  // The API's dates are already days of the shop's zone: formatted as UTC dates they stay the same day.
  const day = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const longDay = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    count: (n) => count.format(n),
    money: (n) => money.format(n),
    moneyAxis: (n) => moneyAxis.format(n),
    rate: (r) => (r === null ? '—' : rate.format(r)),
    day: (date) => day.format(utcDate(date)),
    longDay: (date) => longDay.format(utcDate(date)),
  };
}

export const valueOf = (f: Formats, kind: Kind) => (kind === 'money' ? f.money : f.count);

/** Colours with at least 3:1 contrast on white, distinct for the common kinds of colour blindness. */
export const PALETTE = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#c92a2a', '#0c8599', '#5f3dc4', '#862e9c', '#495057'];

function axisOf(series: readonly Series[], index: 0 | 1, f: Formats) {
  const on = series.filter((s) => (s.axis ?? 0) === index);
  const kind: Kind = on[0]?.kind ?? 'count';
  return {
    type: 'value' as const,
    ...(kind === 'count' && { minInterval: 1 }),
    axisLabel: { formatter: (n: number) => (kind === 'money' ? f.moneyAxis(n) : f.count(n)) },
    splitLine: { show: index === 0 },
  };
}

/** The option of a chart of days: a category axis of the period's days, one or two value axes. */
export function dayChartOption(chart: DayChart, f: Formats): ChartOption {
  const twoAxes = chart.series.some((s) => s.axis === 1);
  return {
    animation: false,
    color: PALETTE,
    grid: {
      left: 16,
      right: 16,
      top: chart.series.length > 1 ? 48 : 16,
      bottom: 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'axisLabel',
    },
    ...(chart.series.length > 1 && { legend: { top: 0, type: 'plain' as const } }),
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: chart.days.map(f.day), axisTick: { alignWithLabel: true } },
    yAxis: twoAxes ? [axisOf(chart.series, 0, f), axisOf(chart.series, 1, f)] : [axisOf(chart.series, 0, f)],
    series: chart.series.map((s) => {
      const common = {
        name: s.label,
        data: [...s.values],
        yAxisIndex: twoAxes ? (s.axis ?? 0) : 0,
        tooltip: { valueFormatter: (v: unknown) => valueOf(f, s.kind)(Number(v)) },
        ...(s.color !== undefined && { itemStyle: { color: s.color } }),
      };
      return s.type === 'bar'
        ? ({ ...common, type: 'bar', ...(s.stacked && { stack: 'total' }), barMaxWidth: 32 } satisfies BarSeriesOption)
        : ({
            ...common,
            type: 'line',
            showSymbol: chart.days.length <= 14,
            ...(s.color !== undefined && { lineStyle: { color: s.color } }),
          } satisfies LineSeriesOption);
    }),
  };
}

/**
 * A chart in one sentence per series (its role="img" label): the period, the total of what
 * adds up, and the day of the highest value. The table under the chart has every number.
 */
export function summaryOf(title: string, chart: DayChart, f: Formats, t: Translate): string {
  const first = chart.days[0];
  const last = chart.days[chart.days.length - 1];
  const head =
    first === undefined || last === undefined
      ? title
      : t('dashboards.summary.head', { title, from: f.longDay(first), to: f.longDay(last) });
  const parts = chart.series.map((s) => {
    const value = valueOf(f, s.kind);
    let top = 0;
    s.values.forEach((v, i) => {
      if (v > (s.values[top] ?? 0)) top = i;
    });
    const max = s.values[top] ?? 0;
    const day = chart.days[top];
    const peak =
      max > 0 && day !== undefined
        ? t('dashboards.summary.peak', { value: value(max), day: f.longDay(day) })
        : t('dashboards.summary.none');
    return s.additive
      ? t('dashboards.summary.total', { series: s.label, total: value(s.values.reduce((a, b) => a + b, 0)), peak })
      : t('dashboards.summary.series', { series: s.label, peak });
  });
  return [head, ...parts].join(' ');
}
