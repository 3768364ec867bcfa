import { Anchor, Badge, Button, Group, Paper, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LoadMore } from '../customers/load-more';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShopLocale } from '../loyalty/loyalty.queries';
import { Empty, Failure, Loading } from '../ui/states';
import { chainKeys, useRuns, type Run, type RunsFilter } from './chains.queries';

const STATUS_COLOURS: Readonly<Record<Run['status'], string>> = { waiting: 'blue', done: 'green', exited: 'gray' };

/**
 * A chain's runs, newest first, a page at a time (GET …/chains/{code}/runs): each with its
 * state, the step it is at (or ended at), when it started, when its wait ends or when it
 * ended, and why it exited. Filtered on the server by a customer's email or phone.
 */
export function ChainRuns({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t, language } = useI18n();
  const shop = useShopLocale(shopId);
  const [by, setBy] = useState<'email' | 'phone'>('email');
  const [value, setValue] = useState('');
  const [filter, setFilter] = useState<RunsFilter>({});
  const runs = useRuns(shopId, code, filter);
  const queryClient = useQueryClient();
  // Runs move on their own: a refresh reads them again, and the steps' counts with them.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: chainKeys.chain(shopId, code) });
  const rows = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const when = (iso: string | null) => (iso && shop ? formatDateTime(iso, shop, language) : '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    setFilter(text === '' ? {} : { [by]: text });
  };
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('chains.runs')}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={submit} aria-label={t('chains.runs.filter')}>
          <Group align="flex-end">
            <Select
              label={t('chains.runs.by')}
              w={140}
              data={[
                { value: 'email', label: t('chains.runs.email') },
                { value: 'phone', label: t('chains.runs.phone') },
              ]}
              value={by}
              onChange={(v) => v && setBy(v)}
              allowDeselect={false}
            />
            <TextInput label={t('chains.runs.customer')} maxLength={255} value={value} onChange={(e) => setValue(e.currentTarget.value)} />
            <Button type="submit" variant="default">
              {t('chains.runs.find')}
            </Button>
            <Button variant="default" onClick={refresh} loading={runs.isRefetching && !runs.isFetchingNextPage}>
              {t('chains.runs.refresh')}
            </Button>
          </Group>
        </form>
      </Paper>
      {runs.isPending && <Loading />}
      {runs.isError && <Failure error={runs.error} onRetry={() => void runs.refetch()} />}
      {runs.data && rows.length === 0 && (
        <Empty>{filter.email || filter.phone ? t('chains.runs.noneFound') : t('chains.runs.empty')}</Empty>
      )}
      {rows.length > 0 && (
        <Table striped aria-label={t('chains.runs')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('chains.runs.id')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.status')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.step')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.started')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.dueOrEnded')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.reason')}</Table.Th>
              <Table.Th scope="col">{t('chains.runs.profile')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((run) => (
              <Table.Tr key={run.id}>
                <Table.Td>{run.id}</Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={STATUS_COLOURS[run.status]}>
                    {t(`chains.run.${run.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{t('chains.runs.stepOf', { number: run.step + 1, version: run.version })}</Table.Td>
                <Table.Td>{when(run.started_at)}</Table.Td>
                <Table.Td>
                  {run.status === 'waiting'
                    ? run.due_at
                      ? t('chains.runs.due', { when: when(run.due_at) })
                      : ''
                    : run.ended_at
                      ? t('chains.runs.ended', { when: when(run.ended_at) })
                      : ''}
                </Table.Td>
                <Table.Td>{run.reason ?? ''}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/customers/${run.profile_id}`}>
                    {t('chains.runs.profileLink', { id: run.profile_id })}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore query={runs} label={t('chains.runs.more')} />
    </Stack>
  );
}
