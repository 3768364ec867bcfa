import { Anchor, Button, Group, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { CsvLink } from '../dashboards/parts';
import { choiceOf, paramsOf, periodOf } from '../dashboards/period';
import { PeriodPicker } from '../dashboards/period-picker';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { todayIn, useShop } from '../shops/shop.queries';
import { Page, Section } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { csvOf, queryOf, useCategories, useChannels, useReviews, useScore, type Interval, type ReviewFilters } from './nps.queries';
import { ScorePanel } from './score-panel';

const NO_FILTERS: ReviewFilters = { channel: '', category: '', rateMin: '', rateMax: '' };
const RATES = Array.from({ length: 11 }, (_, i) => String(i));

/**
 * NPS reviews (docs/nps.md): the period in the address as on the dashboard, filters by
 * channel, category and rating, the score with its counts and chart, and the reviews
 * themselves, newest first, with their CSV.
 */
export function ReviewsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  return (
    <Page title={t('nps.reviews.title')} hint={t('nps.reviews.hint')}>
      <Anchor component={Link} to={`/shops/${shopId}/nps/settings`}>
        {t('nps.reviews.toSettings')}
      </Anchor>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && <Reviews shopId={shopId} shop={shop.data} />}
    </Page>
  );
}

function Reviews({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const choice = choiceOf(params);
  const chosen = periodOf(choice, todayIn(shop.timezone));
  const period = 'period' in chosen ? chosen.period : undefined;
  const [filters, setFilters] = useState<ReviewFilters>(NO_FILTERS);
  const [interval, setInterval] = useState<Interval>('day');
  const channels = useChannels(shopId);
  const categories = useCategories(shopId);
  const score = useScore(shopId, period, filters, interval);
  const failure = periodFailure(score.error);
  const set = (key: keyof ReviewFilters) => (value: string | null) => setFilters((f) => ({ ...f, [key]: value ?? '' }));
  const all = { value: '', label: t('nps.reviews.all') };
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
      <Group align="flex-end" role="group" aria-label={t('nps.reviews.filters')}>
        <Select
          label={t('nps.reviews.channel')}
          data={[all, ...(channels.data?.channels ?? []).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))]}
          value={filters.channel}
          onChange={set('channel')}
          allowDeselect={false}
        />
        <Select
          label={t('nps.reviews.category')}
          data={[all, ...(categories.data?.categories ?? []).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))]}
          value={filters.category}
          onChange={set('category')}
          allowDeselect={false}
        />
        <Select
          label={t('nps.reviews.rateMin')}
          data={[all, ...RATES]}
          value={filters.rateMin}
          onChange={set('rateMin')}
          allowDeselect={false}
          w={110}
        />
        <Select
          label={t('nps.reviews.rateMax')}
          data={[all, ...RATES]}
          value={filters.rateMax}
          onChange={set('rateMax')}
          allowDeselect={false}
          w={110}
        />
        <SegmentedControl
          aria-label={t('nps.score.interval')}
          value={interval}
          onChange={(value) => setInterval(value === 'week' ? 'week' : 'day')}
          data={[
            { value: 'day', label: t('nps.score.byDay') },
            { value: 'week', label: t('nps.score.byWeek') },
          ]}
        />
      </Group>
      {period && score.isPending && <Loading />}
      {score.isError && !failure && <Failure error={score.error} onRetry={() => void score.refetch()} />}
      {period && score.data && !score.isError && (
        <Section title={t('nps.score.title')}>
          <ScorePanel
            score={score.data}
            shop={shop}
            stale={score.isPlaceholderData}
            csv={csvOf(shopId, 'score', { ...stripRates(queryOf(period, filters)), interval })}
          />
        </Section>
      )}
      {period && <ReviewList shopId={shopId} shop={shop} period={period} filters={filters} />}
    </Stack>
  );
}

function stripRates(query: ReturnType<typeof queryOf>): Record<string, string | number> {
  const { rate_min: _min, rate_max: _max, ...rest } = query;
  return rest;
}

/** The server names `date_from` / `date_to`; the picker's fields are `from` / `to`. */
function periodFailure(error: unknown): { readonly field: 'from' | 'to'; readonly message: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  if (error.field === 'date_from') return { field: 'from', message: error.message };
  if (error.field === 'date_to') return { field: 'to', message: error.message };
  return undefined;
}

function ReviewList({
  shopId,
  shop,
  period,
  filters,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly period: { readonly from: string; readonly to: string };
  readonly filters: ReviewFilters;
}) {
  const { t, language } = useI18n();
  const { query, reviews } = useReviews(shopId, period, filters);
  return (
    <Section title={t('nps.reviews.list')}>
      <Group justify="flex-end">
        <CsvLink {...csvOf(shopId, 'reviews', queryOf(period, filters))} label={t('nps.reviews.csv')} />
      </Group>
      {query.isPending && <Loading />}
      {query.isError && <Failure error={query.error} onRetry={() => void query.refetch()} />}
      {query.data && reviews.length === 0 && <Empty>{t('nps.reviews.empty')}</Empty>}
      {reviews.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label={t('nps.reviews.list')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('nps.reviews.when')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.rate')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.channel')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.category')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.comment')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.order')}</Table.Th>
                <Table.Th scope="col">{t('nps.reviews.customer')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reviews.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{formatDateTime(r.updated_at, shop, language)}</Table.Td>
                  <Table.Td>
                    <Text span fw={700}>
                      {r.rate}
                    </Text>
                  </Table.Td>
                  <Table.Td ff="monospace">{r.channel}</Table.Td>
                  <Table.Td ff="monospace">{r.category}</Table.Td>
                  <Table.Td>{r.comment ?? t('common.none')}</Table.Td>
                  <Table.Td>
                    {r.order_id === null ? (
                      t('common.none')
                    ) : (
                      <Text span size="sm">
                        {r.order_id} {r.order_found ? '' : t('nps.reviews.orderUnknown')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/customers/${r.profile_id}`}>
                      {r.profile_id}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.hasNextPage && (
        <Group>
          <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('nps.reviews.more')}
          </Button>
        </Group>
      )}
    </Section>
  );
}
