import { Anchor, Badge, Button, Group, Paper, Select, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadMore } from '../customers/load-more';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { CHANNELS, filtersFrom, OUTCOMES, paramsOf, searchQuery, STATUSES, type LogFilters } from './log-filters';
import { useMessageSearch, useShopLocale } from './messaging.queries';
import { OutcomeBadges, useChannelLabel } from './parts';

/** The server's field names of a refused search, and the box each is shown at. */
const QUERY_FIELDS = ['profile_id', 'email', 'phone', 'code', 'channel', 'status', 'outcome', 'from', 'to'] as const;
const BOX_OF: Readonly<Record<(typeof QUERY_FIELDS)[number], keyof LogFilters>> = {
  profile_id: 'customer',
  email: 'customer',
  phone: 'customer',
  code: 'code',
  channel: 'channel',
  status: 'status',
  outcome: 'outcome',
  from: 'from',
  to: 'to',
};

/** The delivery log: every message of the shop, newest first, filtered on the server; the filters live in the address. */
export function DeliveryLogScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const query = searchQuery(filters, shop?.timezone ?? 'UTC');
  const log = useMessageSearch(shopId, query, shop !== undefined);
  const failure = formFailure(log.isFetchNextPageError ? null : log.error, QUERY_FIELDS, t);
  const at = (box: keyof LogFilters) => (failure.field && BOX_OF[failure.field.name] === box ? failure.field.message : undefined);
  const channelLabel = useChannelLabel();
  const rows = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title={t('messaging.log.title')} hint={t('messaging.log.hint')}>
      <FiltersForm key={params.toString()} initial={filters} onApply={(draft) => setParams(paramsOf(draft))} errorAt={at} />
      {(log.isPending || !shop) && <Loading />}
      {log.isError && !log.isFetchNextPageError && !failure.field && <Failure error={log.error} onRetry={() => void log.refetch()} />}
      {log.data && rows.length === 0 && <Empty>{t('messaging.log.empty')}</Empty>}
      {rows.length > 0 && shop && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label={t('messaging.log.results')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('messaging.log.created')}</Table.Th>
                <Table.Th scope="col">{t('messaging.log.code')}</Table.Th>
                <Table.Th scope="col">{t('messaging.log.channel')}</Table.Th>
                <Table.Th scope="col">{t('messaging.log.to')}</Table.Th>
                <Table.Th scope="col">{t('messaging.log.status')}</Table.Th>
                <Table.Th scope="col">{t('messaging.log.outcome')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={`${m.code}-${m.seq}`}>
                  <Table.Td>{formatDateTime(m.created_at, shop, language)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/messages/${encodeURIComponent(m.code)}`}>
                      {m.code}
                    </Anchor>
                    {m.test && (
                      <Badge ml="xs" size="sm" variant="dot" color="gray">
                        {t('messaging.log.test')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{channelLabel(m.channel)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{m.to}</Table.Td>
                  <Table.Td>{t(`messaging.status.${m.status}`)}</Table.Td>
                  <Table.Td>
                    <OutcomeBadges outcomes={m.outcomes} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={log} label={t('messaging.loadMore')} />
    </Page>
  );
}

/** The filters being typed; a new address (a search, the back button) starts them again from it. */
function FiltersForm({
  initial,
  onApply,
  errorAt: at,
}: {
  readonly initial: LogFilters;
  readonly onApply: (filters: LogFilters) => void;
  readonly errorAt: (box: keyof LogFilters) => string | undefined;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<LogFilters>(initial);
  const set = (key: keyof LogFilters, value: string | null) => setDraft((old) => ({ ...old, [key]: value ?? '' }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const options = (values: readonly string[], prefix: 'channel' | 'status' | 'outcome') =>
    values.map((value) => ({ value, label: t(`messaging.${prefix}.${value}` as Parameters<typeof t>[0]) }));
  return (
    <Paper withBorder p="md">
      <form onSubmit={apply} noValidate role="search" aria-label={t('messaging.log.filters')}>
        <Group align="flex-start">
          <TextInput
            label={t('messaging.log.customer')}
            description={t('messaging.log.customerHint')}
            maxLength={254}
            value={draft.customer ?? ''}
            onChange={(e) => set('customer', e.currentTarget.value)}
            error={at('customer')}
            w={260}
          />
          <TextInput
            label={t('messaging.log.code')}
            maxLength={64}
            value={draft.code ?? ''}
            onChange={(e) => set('code', e.currentTarget.value)}
            error={at('code')}
            w={200}
          />
          <Select
            label={t('messaging.log.channel')}
            placeholder={t('messaging.log.any')}
            data={options(CHANNELS, 'channel')}
            value={draft.channel || null}
            onChange={(v) => set('channel', v)}
            clearable
            error={at('channel')}
            w={170}
          />
          <Select
            label={t('messaging.log.status')}
            placeholder={t('messaging.log.any')}
            data={options(STATUSES, 'status')}
            value={draft.status || null}
            onChange={(v) => set('status', v)}
            clearable
            error={at('status')}
            w={150}
          />
          <Select
            label={t('messaging.log.outcome')}
            placeholder={t('messaging.log.any')}
            data={options(OUTCOMES, 'outcome')}
            value={draft.outcome || null}
            onChange={(v) => set('outcome', v)}
            clearable
            error={at('outcome')}
            w={170}
          />
          <TextInput
            type="date"
            label={t('messaging.log.from')}
            value={draft.from ?? ''}
            onChange={(e) => set('from', e.currentTarget.value)}
            error={at('from')}
          />
          <TextInput
            type="date"
            label={t('messaging.log.to')}
            value={draft.to ?? ''}
            onChange={(e) => set('to', e.currentTarget.value)}
            error={at('to')}
          />
        </Group>
        <Group mt="sm">
          <Button type="submit" variant="default">
            {t('messaging.log.search')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
