import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { formatsFor } from '../dashboards/options';
import { CsvLink, DayChartPanel } from '../dashboards/parts';
import { choiceOf, everyDay, paramsOf, periodOf } from '../dashboards/period';
import { PeriodPicker } from '../dashboards/period-picker';
import type { DayChart } from '../dashboards/series';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { todayIn } from '../shops/shop.queries';
import { StatCard } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { statsCsv, useBlockStats, type BlockStats } from './recommendations.queries';

/**
 * A block's figures over a period (GET …/recommendation-blocks/{code}/stats,
 * docs/recommendations.md "Figures"): the totals as text, then a chart of the days with its
 * CSV download and its numbers as a table. The period lives in the address, as on the
 * dashboard (`?days=30`, or `?from=…&to=…`), in the shop's time zone.
 */
export function BlockFigures({ shopId, code, shop }: { readonly shopId: string; readonly code: string; readonly shop: ShopLocale }) {
  const [params, setParams] = useSearchParams();
  const choice = choiceOf(params);
  const chosen = periodOf(choice, todayIn(shop.timezone));
  const period = 'period' in chosen ? chosen.period : undefined;
  const stats = useBlockStats(shopId, code, period);
  const failure = periodFailure(stats.error);
  return (
    <Stack gap="md">
      <PeriodPicker
        key={params.toString()}
        choice={choice}
        period={period}
        timezone={shop.timezone}
        problem={'problem' in chosen ? chosen.problem : undefined}
        failure={failure}
        onChoose={(next) => setParams(paramsOf(next), { replace: true })}
      />
      {period && stats.isPending && <Loading />}
      {stats.isError && !failure && <Failure error={stats.error} onRetry={() => void stats.refetch()} />}
      {stats.data && !stats.isError && <Figures shopId={shopId} shop={shop} stats={stats.data} stale={stats.isPlaceholderData} />}
    </Stack>
  );
}

/** The server names `date_from` / `date_to`; the picker's fields are `from` / `to`. */
function periodFailure(error: unknown): { readonly field: 'from' | 'to'; readonly message: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  if (error.field === 'date_from') return { field: 'from', message: error.message };
  if (error.field === 'date_to') return { field: 'to', message: error.message };
  return undefined;
}

function Figures({
  shopId,
  shop,
  stats,
  stale,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly stats: BlockStats;
  readonly stale: boolean;
}) {
  const { t, language } = useI18n();
  const f = useMemo(() => formatsFor(shop, language), [shop, language]);
  const csv = statsCsv(shopId, stats.code, { from: stats.date_from, to: stats.date_to });
  const chart = useMemo(() => figuresChart(stats, t), [stats, t]);
  const totals = stats.totals;
  return (
    <Stack gap="md" aria-busy={stale} style={stale ? { opacity: 0.6 } : undefined}>
      <Group justify="space-between" align="baseline">
        <Text size="sm" c="gray.7">
          {t('recommendations.figures.period', { from: f.longDay(stats.date_from), to: f.longDay(stats.date_to), zone: stats.timezone })}
        </Text>
        <CsvLink {...csv} label={t('recommendations.figures.csv')} />
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} component="ul" aria-label={t('recommendations.figures.totals')} p={0} m={0}>
        <StatCard component="li" label={t('recommendations.figures.impressions')} value={f.count(totals.impressions)} />
        <StatCard component="li" label={t('recommendations.figures.clicks')} value={f.count(totals.clicks)} />
        <StatCard component="li" label={t('recommendations.figures.ctr')} value={f.rate(totals.impressions === 0 ? null : totals.ctr)} />
        <StatCard component="li" label={t('recommendations.figures.views')} value={f.count(totals.views)} />
        <StatCard component="li" label={t('recommendations.figures.carts')} value={f.count(totals.carts)} />
        <StatCard component="li" label={t('recommendations.figures.orders')} value={f.count(totals.orders)} />
        <StatCard component="li" label={t('recommendations.figures.revenue')} value={f.money(totals.revenue)} />
      </SimpleGrid>
      <DayChartPanel
        title={t('recommendations.figures.chart')}
        chart={chart}
        formats={f}
        emptyText={t('recommendations.figures.empty')}
        csv={csv}
      />
    </Stack>
  );
}

/** Impressions, clicks, carts and orders as bars by day; revenue as a line on the money axis. */
export function figuresChart(
  stats: BlockStats,
  t: (
    key:
      | 'recommendations.figures.impressions'
      | 'recommendations.figures.clicks'
      | 'recommendations.figures.carts'
      | 'recommendations.figures.orders'
      | 'recommendations.figures.revenue',
  ) => string,
): DayChart {
  const days = everyDay({ from: stats.date_from, to: stats.date_to });
  const byDate = new Map(stats.days.map((d) => [d.date, d]));
  const values = (figure: 'impressions' | 'clicks' | 'carts' | 'orders' | 'revenue') => days.map((date) => byDate.get(date)?.[figure] ?? 0);
  return {
    days,
    series: [
      {
        key: 'impressions',
        label: t('recommendations.figures.impressions'),
        kind: 'count',
        values: values('impressions'),
        type: 'bar',
        additive: true,
      },
      { key: 'clicks', label: t('recommendations.figures.clicks'), kind: 'count', values: values('clicks'), type: 'bar', additive: true },
      { key: 'carts', label: t('recommendations.figures.carts'), kind: 'count', values: values('carts'), type: 'bar', additive: true },
      { key: 'orders', label: t('recommendations.figures.orders'), kind: 'count', values: values('orders'), type: 'bar', additive: true },
      {
        key: 'revenue',
        label: t('recommendations.figures.revenue'),
        kind: 'money',
        values: values('revenue'),
        type: 'line',
        axis: 1,
        additive: true,
      },
    ],
  };
}
