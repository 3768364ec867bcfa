import { Anchor, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n';
import { downloadFile } from '../loyalty/loyalty.queries';
import { Empty, InlineFailure } from '../ui/states';
import { dayChartOption, summaryOf, valueOf, type ChartOption, type Formats } from './options';
import { isEmpty, type DayChart } from './series';

// ECharts is a chunk of its own, fetched when the first chart is drawn.
const EChart = lazy(() => import('./echart'));

/**
 * A link to a CSV download of the admin API. It is a real link (its address can be copied
 * or opened), but a click fetches the file with the session cookie and saves it under its
 * name, so that a refusal is shown here in words instead of as a downloaded error.
 */
export function CsvLink({ path, filename, label }: { readonly path: string; readonly filename: string; readonly label: string }) {
  const { t } = useI18n();
  const download = useMutation({ mutationFn: () => downloadFile(path, filename) });
  return (
    <Group gap="xs">
      <Anchor
        href={path}
        download={filename}
        size="sm"
        aria-label={label}
        onClick={(event) => {
          event.preventDefault();
          if (!download.isPending) download.mutate();
        }}
      >
        {t('dashboards.csv')}
      </Anchor>
      {download.isError && <InlineFailure error={download.error} />}
    </Group>
  );
}

/**
 * A chart's frame: its heading, its CSV link, the chart (or its empty state, never blank
 * axes), and the numbers as a table that opens under it, for keyboards, screen readers and
 * copying.
 */
export function ChartFrame({
  title,
  csv,
  empty,
  option,
  summary,
  height = 280,
  order = 2,
  table,
  children,
}: {
  readonly title: string;
  /** Its heading's level: 2 on a screen of charts, deeper inside another page's section. */
  readonly order?: 2 | 3 | 4;
  readonly csv: { readonly path: string; readonly filename: string };
  /** The empty state's words when there is nothing to draw; undefined when there is. */
  readonly empty: string | undefined;
  readonly option: ChartOption;
  readonly summary: string;
  readonly height?: number;
  /** The numbers behind the chart, rendered only when opened (a year is 366 rows). */
  readonly table: () => ReactNode;
  /** Shown under the chart whatever it holds (the channels' rates). */
  readonly children?: ReactNode;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={order} size="h4" id={titleId}>
            {title}
          </Title>
          <CsvLink {...csv} label={t('dashboards.csvOf', { title })} />
        </Group>
        {empty !== undefined ? (
          <Empty>{empty}</Empty>
        ) : (
          <>
            <Suspense fallback={<Skeleton height={height} aria-hidden />}>
              <EChart option={option} label={summary} height={height} />
            </Suspense>
            <details onToggle={(event) => setOpen(event.currentTarget.open)}>
              <summary>
                <Text span size="sm">
                  {t('dashboards.showNumbers')}
                </Text>
              </summary>
              {open && table()}
            </details>
          </>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** A chart of days (events, orders, bonuses…) in its frame, with its summary and its table built from the same series. */
export function DayChartPanel({
  title,
  chart,
  formats,
  emptyText,
  csv,
  children,
}: {
  readonly title: string;
  readonly chart: DayChart;
  readonly formats: Formats;
  readonly emptyText: string;
  readonly csv: { readonly path: string; readonly filename: string };
  readonly children?: ReactNode;
}) {
  const { t } = useI18n();
  const option = useMemo(() => dayChartOption(chart, formats), [chart, formats]);
  const summary = useMemo(() => summaryOf(title, chart, formats, t), [title, chart, formats, t]);
  return (
    <ChartFrame
      title={title}
      csv={csv}
      empty={isEmpty(chart) ? emptyText : undefined}
      option={option}
      summary={summary}
      table={() => <DayTable title={title} chart={chart} formats={formats} />}
    >
      {children}
    </ChartFrame>
  );
}

function DayTable({ title, chart, formats }: { readonly title: string; readonly chart: DayChart; readonly formats: Formats }) {
  const { t } = useI18n();
  return (
    <Table.ScrollContainer minWidth={320} maxHeight={360}>
      <Table striped aria-label={t('dashboards.tableOf', { title })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('dashboards.day')}</Table.Th>
            {chart.series.map((s) => (
              <Table.Th scope="col" key={s.key}>
                {s.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {chart.days.map((day, i) => (
            <Table.Tr key={day}>
              <Table.Th scope="row" fw="normal">
                {formats.longDay(day)}
              </Table.Th>
              {chart.series.map((s) => (
                <Table.Td key={s.key}>{valueOf(formats, s.kind)(s.values[i] ?? 0)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
