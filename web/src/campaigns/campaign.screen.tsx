import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { Funnel } from '../dashboards/funnel';
import { formatDateTime, formatUnits } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop, type Shop } from '../shops/shop.queries';
import { Page, StatCard } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { useCampaign, type Campaign, type Outcomes } from './campaigns.queries';
import { StatusBadge } from './parts';

/**
 * `/shops/:shopId/campaigns/:id`: one campaign. While it is not done the page reads it
 * again every second and a half and its progress bar moves; then its results: per A/B
 * variant, the winner sent to the rest, and in total, and its funnel.
 */
export function CampaignScreen() {
  const { t } = useI18n();
  const { shopId = '', id = '' } = useParams();
  const known = /^\d{1,15}$/.test(id);
  const shop = useShop(shopId);
  const campaign = useCampaign(shopId, known ? id : '0');
  const title = campaign.data?.name ?? t('campaigns.one.title', { id });
  return (
    <Page title={known ? title : t('error.notFound')}>
      <Anchor component={Link} to={`/shops/${shopId}/campaigns`} size="sm">
        {t('campaigns.back')}
      </Anchor>
      {!known ? (
        <Empty>{t('error.notFound')}</Empty>
      ) : campaign.isPending || shop.isPending ? (
        <Loading />
      ) : campaign.isError ? (
        <Failure error={campaign.error} onRetry={() => void campaign.refetch()} />
      ) : shop.isError ? (
        <Failure error={shop.error} onRetry={() => void shop.refetch()} />
      ) : (
        <CampaignView shopId={shopId} shop={shop.data} campaign={campaign.data} />
      )}
    </Page>
  );
}

function CampaignView({ shopId, shop, campaign }: { readonly shopId: string; readonly shop: Shop; readonly campaign: Campaign }) {
  const { t, language } = useI18n();
  const count = new Intl.NumberFormat(language);
  const progress = campaign.progress;
  return (
    <Stack gap="md">
      <Group gap="sm">
        <StatusBadge status={campaign.status} />
        <Text size="sm">
          {campaign.status === 'scheduled'
            ? t('campaigns.one.scheduledFor', { at: formatDateTime(campaign.send_at, shop, language) })
            : t('campaigns.one.startedAt', { at: formatDateTime(campaign.send_at, shop, language) })}
        </Text>
        <Text size="sm" c="gray.7">
          {t('campaigns.one.segments', { ids: campaign.segment_ids.join(', ') })}
          {campaign.throttle_per_minute !== null && ` · ${t('campaigns.one.throttle', { n: count.format(campaign.throttle_per_minute) })}`}
        </Text>
      </Group>
      {progress && (
        <Paper withBorder p="md" component="section" aria-label={t('campaigns.one.progress')}>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('campaigns.one.progress')}
            </Title>
            <Progress.Root size="xl" aria-hidden={false}>
              <Progress.Section
                value={progress.percent}
                aria-label={t('campaigns.one.progress')}
                color={campaign.status === 'done' ? 'green' : 'blue'}
                animated={campaign.status === 'sending'}
                striped={campaign.status === 'sending'}
              />
            </Progress.Root>
            <Text aria-live="polite" role="status">
              {t('campaigns.one.progressText', {
                done: count.format(progress.done),
                total: count.format(progress.to_send),
                percent: progress.percent,
              })}
              {campaign.status === 'done' ? ` ${t('campaigns.one.finished')}` : ''}
            </Text>
            {progress.ab_phase !== null && (
              <Text size="sm">
                {t(`campaigns.one.phase.${progress.ab_phase}`, {
                  at: progress.decide_at === null ? '' : formatDateTime(progress.decide_at, shop, language),
                })}
              </Text>
            )}
          </Stack>
        </Paper>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        <StatCard component="li" label={t('campaigns.one.recipients')} value={count.format(campaign.recipients)} />
        <StatCard component="li" label={t('campaigns.one.sent')} value={count.format(campaign.sent)} />
        <StatCard
          component="li"
          label={t('campaigns.one.skipped')}
          value={count.format(campaign.skipped)}
          note={t('campaigns.one.skippedBy', {
            unreachable: count.format(campaign.skipped_by.unreachable),
            unsubscribed: count.format(campaign.skipped_by.unsubscribed),
            overCap: count.format(campaign.skipped_by.over_cap),
          })}
        />
        <StatCard component="li" label={t('campaigns.one.failed')} value={count.format(campaign.failed)} />
        <StatCard component="li" label={t('campaigns.one.pending')} value={count.format(campaign.pending)} />
        <StatCard component="li" label={t('campaigns.one.held')} value={count.format(campaign.held)} />
      </SimpleGrid>
      {campaign.results && <Results shop={shop} campaign={campaign} results={campaign.results} />}
      {campaign.status === 'done' && <Funnel shopId={shopId} type="bulk" id={campaign.id} headingOrder={2} />}
    </Stack>
  );
}

const COLUMNS = [
  'messaged',
  'delivered',
  'opened',
  'clicked',
  'unsubscribed',
  'bounced',
  'purchases',
  'revenue',
  'open_rate',
  'click_rate',
] as const;

function Results({
  shop,
  campaign,
  results,
}: {
  readonly shop: Shop;
  readonly campaign: Campaign;
  readonly results: NonNullable<Campaign['results']>;
}) {
  const { t, language } = useI18n();
  const count = new Intl.NumberFormat(language);
  const rate = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const split = results.variants.some((v) => v.variant !== '');
  const cell = (o: Outcomes, column: (typeof COLUMNS)[number]) =>
    column === 'revenue'
      ? formatUnits(o.revenue, shop, language)
      : column.endsWith('_rate')
        ? rate.format(o[column])
        : count.format(o[column]);
  const rows: { readonly key: string; readonly label: string; readonly o: Outcomes; readonly strong?: boolean }[] = [
    ...(split
      ? results.variants.map((v) => ({
          key: `v-${v.variant}`,
          label: t('campaigns.results.variant', { name: v.variant.toUpperCase(), share: v.share ?? 0 }),
          o: v,
        }))
      : []),
    ...(results.rest
      ? [{ key: 'rest', label: t('campaigns.results.rest', { name: results.rest.variant.toUpperCase() }), o: results.rest }]
      : []),
    { key: 'total', label: t('campaigns.results.total'), o: results.total, strong: true },
  ];
  const title = t('campaigns.results.title');
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {campaign.winner !== null && <Text fw={600}>{t('campaigns.results.winner', { name: campaign.winner.toUpperCase() })}</Text>}
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('campaigns.results.group')}</Table.Th>
                {COLUMNS.map((c) => (
                  <Table.Th scope="col" key={c}>
                    {t(`campaigns.results.${c}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.key} fw={r.strong ? 700 : undefined}>
                  <Table.Th scope="row">{r.label}</Table.Th>
                  {COLUMNS.map((c) => (
                    <Table.Td key={c}>{cell(r.o, c)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="gray.7">
          {t('campaigns.results.note', { currency: shop.currency })}
        </Text>
      </Stack>
    </Paper>
  );
}
