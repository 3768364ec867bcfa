import { Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { todayIn, useShop } from '../shops/shop.queries';
import { Page, StatCard } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { overviewCsv, useOverview } from './dashboards.queries';
import { channelName, eventName } from './names';
import { formatsFor, type Formats } from './options';
import { CsvLink, DayChartPanel } from './parts';
import { choiceOf, paramsOf, periodOf } from './period';
import { PeriodPicker } from './period-picker';
import {
  activeChart,
  allChannels,
  attributedChart,
  bonusesChart,
  busiestDay,
  channelRows,
  eventsChart,
  membersChart,
  messagesChart,
  ordersChart,
  zeroFilled,
  type ChannelRow,
  type Overview,
} from './series';

/**
 * A shop's overview of a period (GET …/dashboard, docs/dashboards.md): headline figures as
 * text, then a chart per series with its CSV download and its numbers as a table. The
 * period lives in the address (`?days=30`, or `?from=…&to=…`), in the shop's time zone.
 */
export function DashboardScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [params, setParams] = useSearchParams();
  const choice = choiceOf(params);
  const today = shop.data ? todayIn(shop.data.timezone) : undefined;
  const chosen = today === undefined ? undefined : periodOf(choice, today);
  const period = chosen && 'period' in chosen ? chosen.period : undefined;
  const overview = useOverview(shopId, period);
  const failure = periodFailure(overview.error);

  return (
    <Page title={t('dashboards.title')} hint={t('dashboards.hint')}>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && (
        <PeriodPicker
          // A new choice from the address (the back button) starts the form afresh.
          key={params.toString()}
          choice={choice}
          period={period}
          timezone={shop.data.timezone}
          problem={chosen && 'problem' in chosen ? chosen.problem : undefined}
          failure={failure}
          onChoose={(next) => setParams(paramsOf(next))}
        />
      )}
      {period && overview.isPending && <Loading />}
      {overview.isError && !failure && <Failure error={overview.error} onRetry={() => void overview.refetch()} />}
      {shop.data && period && overview.data && !overview.isError && (
        <Figures shopId={shopId} shop={shop.data} overview={overview.data} stale={overview.isPlaceholderData} />
      )}
    </Page>
  );
}

/** The server's refusal of the period (422 naming `from` or `to`), shown at that field. */
function periodFailure(error: unknown): { readonly field: 'from' | 'to'; readonly message: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const field = error.field;
  return field === 'from' || field === 'to' ? { field, message: error.message } : undefined;
}

function Figures({
  shopId,
  shop,
  overview,
  stale,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly overview: Overview;
  /** The previous period's answer, shown while the chosen one loads. */
  readonly stale: boolean;
}) {
  const { t, language } = useI18n();
  const f = useMemo(() => formatsFor(shop, language), [shop, language]);
  const days = useMemo(() => zeroFilled(overview), [overview]);
  const csv = overviewCsv(shopId, { from: overview.from, to: overview.to });
  const charts = useMemo(
    () => ({
      events: eventsChart(days, (type) => eventName(t, type), t('dashboards.events.other')),
      active: activeChart(days, { active: t('dashboards.active.series') }),
      orders: ordersChart(days, { orders: t('dashboards.orders.series'), revenue: t('dashboards.revenue.series') }),
      members: membersChart(days, { members: t('dashboards.members.series') }),
      bonuses: bonusesChart(days, { issued: t('dashboards.bonuses.issued'), spent: t('dashboards.bonuses.spent') }),
      messages: messagesChart(days, (channel) => channelName(t, channel)),
      attributed: attributedChart(days, { revenue: t('dashboards.attributed.revenue'), purchases: t('dashboards.attributed.purchases') }),
    }),
    [days, t],
  );
  const rows = channelRows(overview.totals);
  const all = allChannels(rows);
  const busiest = busiestDay(days);
  const totals = overview.totals;
  const n = f.count;

  return (
    <Stack gap="md" aria-busy={stale} style={stale ? { opacity: 0.6 } : undefined}>
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h3">
          {t('dashboards.periodHeading', { from: f.longDay(overview.from), to: f.longDay(overview.to) })}
        </Title>
        <CsvLink {...csv} label={t('dashboards.csvAll')} />
      </Group>
      {stale && (
        <Text size="sm" c="gray.7" role="status">
          {t('app.loading')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} aria-label={t('dashboards.headline')} role="list">
        <Card label={t('dashboards.card.events')} value={n(totals.events_total)} />
        <Card
          label={t('dashboards.card.active')}
          value={n(busiest?.active ?? 0)}
          note={busiest ? t('dashboards.card.activeNote', { day: f.longDay(busiest.date) }) : undefined}
        />
        <Card label={t('dashboards.card.orders')} value={n(totals.orders)} />
        <Card label={t('dashboards.card.revenue')} value={f.money(totals.revenue)} />
        <Card label={t('dashboards.card.members')} value={n(totals.new_members)} />
        <Card label={t('dashboards.card.issued')} value={f.money(totals.bonuses_issued)} />
        <Card label={t('dashboards.card.spent')} value={f.money(totals.bonuses_spent)} />
        <Card
          label={t('dashboards.card.messages')}
          value={n(all.sent)}
          note={t('dashboards.card.rates', { open: f.rate(all.openRate), click: f.rate(all.clickRate) })}
        />
        <Card
          label={t('dashboards.card.attributed')}
          value={f.money(totals.attributed_revenue)}
          note={t('dashboards.card.attributedNote', { count: n(totals.attributed_purchases) })}
        />
      </SimpleGrid>

      <Title order={2} size="h3">
        {t('dashboards.liabilities.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} role="list" aria-label={t('dashboards.liabilities.title')}>
        <Card label={t('dashboards.liabilities.outstanding')} value={f.money(overview.liabilities.outstanding)} />
        <Card label={t('dashboards.liabilities.pending')} value={f.money(overview.liabilities.pending)} />
        <Card label={t('dashboards.liabilities.expiring')} value={f.money(overview.liabilities.expiring)} />
        <Card label={t('dashboards.liabilities.members')} value={n(overview.liabilities.members)} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <DayChartPanel
          title={t('dashboards.events.title')}
          chart={charts.events}
          formats={f}
          emptyText={t('dashboards.events.empty')}
          csv={csv}
        />
        <DayChartPanel
          title={t('dashboards.active.title')}
          chart={charts.active}
          formats={f}
          emptyText={t('dashboards.active.empty')}
          csv={csv}
        />
        <DayChartPanel
          title={t('dashboards.orders.title')}
          chart={charts.orders}
          formats={f}
          emptyText={t('dashboards.orders.empty')}
          csv={csv}
        />
        <DayChartPanel
          title={t('dashboards.members.title')}
          chart={charts.members}
          formats={f}
          emptyText={t('dashboards.members.empty')}
          csv={csv}
        />
        <DayChartPanel
          title={t('dashboards.bonuses.title')}
          chart={charts.bonuses}
          formats={f}
          emptyText={t('dashboards.bonuses.empty')}
          csv={csv}
        />
        <DayChartPanel
          title={t('dashboards.messages.title')}
          chart={charts.messages}
          formats={f}
          emptyText={t('dashboards.messages.empty')}
          csv={csv}
        >
          {rows.length > 0 && all.sent > 0 && <ChannelTable rows={rows} f={f} />}
        </DayChartPanel>
        <DayChartPanel
          title={t('dashboards.attributed.title')}
          chart={charts.attributed}
          formats={f}
          emptyText={t('dashboards.attributed.empty')}
          csv={csv}
        />
      </SimpleGrid>
    </Stack>
  );
}

function Card(props: { readonly label: string; readonly value: string; readonly note?: string }) {
  return (
    <div role="listitem">
      <StatCard {...props} />
    </div>
  );
}

/** Each channel's period with its open and click rates (of sent). */
function ChannelTable({ rows, f }: { readonly rows: readonly ChannelRow[]; readonly f: Formats }) {
  const { t } = useI18n();
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table aria-label={t('dashboards.messages.byChannel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('dashboards.messages.channel')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.messages.sent')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.messages.opened')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.messages.clicked')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.messages.openRate')}</Table.Th>
            <Table.Th scope="col">{t('dashboards.messages.clickRate')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.channel}>
              <Table.Th scope="row" fw="normal">
                {channelName(t, row.channel)}
              </Table.Th>
              <Table.Td>{f.count(row.sent)}</Table.Td>
              <Table.Td>{f.count(row.opened)}</Table.Td>
              <Table.Td>{f.count(row.clicked)}</Table.Td>
              <Table.Td>{f.rate(row.openRate)}</Table.Td>
              <Table.Td>{f.rate(row.clickRate)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
