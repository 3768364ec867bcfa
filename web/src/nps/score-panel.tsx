import { SimpleGrid, Stack, Table } from '@mantine/core';
import { useMemo } from 'react';
import { formatsFor, dayChartOption, type Formats } from '../dashboards/options';
import { ChartFrame } from '../dashboards/parts';
import type { ShopLocale } from '../i18n/format';
import { useI18n, type Translate } from '../i18n/i18n';
import { StatCard } from '../ui/page';
import type { Score } from './nps.queries';
import { scoreChart } from './score-chart';

/**
 * The score of the period (GET …/nps/score): the totals as figures, the chart of answers
 * and score per day or week with its numbers and CSV, and the score per channel and per
 * category.
 */
export function ScorePanel({
  score,
  shop,
  csv,
  stale,
}: {
  readonly score: Score;
  readonly shop: ShopLocale;
  readonly csv: { readonly path: string; readonly filename: string };
  readonly stale: boolean;
}) {
  const { t, language } = useI18n();
  const f = useMemo(() => formatsFor(shop, language), [shop, language]);
  const chart = useMemo(() => scoreChart(score, t), [score, t]);
  const option = useMemo(() => {
    const base = dayChartOption(chart, f);
    const series = Array.isArray(base.series) ? base.series : [];
    // The score's line is broken where nobody answered, not drawn at 0.
    const withGaps = series.map((s, i) =>
      i === chart.series.length - 1 ? { ...s, data: chart.series[i]?.values.map((v, day) => (chart.gaps[day] ? null : v)) } : s,
    );
    return { ...base, series: withGaps };
  }, [chart, f]);
  const totals = score.totals;
  const title = t('nps.score.chart');
  const summary = t('nps.score.summary', {
    title,
    from: f.longDay(score.date_from),
    to: f.longDay(score.date_to),
    answered: f.count(totals.answered),
    nps: npsText(totals.nps, f),
  });
  return (
    <Stack gap="md" aria-busy={stale} style={stale ? { opacity: 0.6 } : undefined}>
      <SimpleGrid cols={{ base: 2, sm: 5 }} component="ul" aria-label={t('nps.score.totals')} p={0} m={0}>
        <StatCard component="li" label={t('nps.score.nps')} value={npsText(totals.nps, f)} />
        <StatCard component="li" label={t('nps.score.answered')} value={f.count(totals.answered)} />
        <StatCard component="li" label={t('nps.score.promoters')} value={f.count(totals.promoters)} />
        <StatCard component="li" label={t('nps.score.passives')} value={f.count(totals.passives)} />
        <StatCard component="li" label={t('nps.score.detractors')} value={f.count(totals.detractors)} />
      </SimpleGrid>
      <ChartFrame
        title={title}
        csv={csv}
        empty={totals.answered === 0 ? t('nps.score.empty') : undefined}
        option={option}
        summary={summary}
        table={() => <PointsTable score={score} f={f} t={t} />}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Breakdown
          title={t('nps.score.byChannel')}
          rows={score.channels.map((c) => ({ key: c.channel, ...c }))}
          f={f}
          t={t}
          head={t('nps.reviews.channel')}
        />
        <Breakdown
          title={t('nps.score.byCategory')}
          rows={score.categories.map((c) => ({ key: c.category, ...c }))}
          f={f}
          t={t}
          head={t('nps.reviews.category')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function npsText(nps: number | null, f: Formats): string {
  return nps === null ? '—' : f.count(nps);
}

function PointsTable({ score, f, t }: { readonly score: Score; readonly f: Formats; readonly t: Translate }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped aria-label={t('dashboards.tableOf', { title: t('nps.score.chart') })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{score.interval === 'week' ? t('nps.score.week') : t('dashboards.day')}</Table.Th>
            <Table.Th scope="col">{t('nps.score.answered')}</Table.Th>
            <Table.Th scope="col">{t('nps.score.promoters')}</Table.Th>
            <Table.Th scope="col">{t('nps.score.passives')}</Table.Th>
            <Table.Th scope="col">{t('nps.score.detractors')}</Table.Th>
            <Table.Th scope="col">{t('nps.score.nps')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {score.points.map((p) => (
            <Table.Tr key={p.date}>
              <Table.Th scope="row" fw="normal">
                {f.longDay(p.date)}
              </Table.Th>
              <Table.Td>{f.count(p.answered)}</Table.Td>
              <Table.Td>{f.count(p.promoters)}</Table.Td>
              <Table.Td>{f.count(p.passives)}</Table.Td>
              <Table.Td>{f.count(p.detractors)}</Table.Td>
              <Table.Td>{npsText(p.nps, f)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Breakdown({
  title,
  head,
  rows,
  f,
  t,
}: {
  readonly title: string;
  readonly head: string;
  readonly rows: ReadonlyArray<{ readonly key: string; readonly answered: number; readonly nps: number | null }>;
  readonly f: Formats;
  readonly t: Translate;
}) {
  return (
    <Table aria-label={title} striped>
      <Table.Caption>{title}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{head}</Table.Th>
          <Table.Th scope="col">{t('nps.score.answered')}</Table.Th>
          <Table.Th scope="col">{t('nps.score.nps')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Th scope="row" fw="normal" ff="monospace">
              {r.key}
            </Table.Th>
            <Table.Td>{f.count(r.answered)}</Table.Td>
            <Table.Td>{npsText(r.nps, f)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
