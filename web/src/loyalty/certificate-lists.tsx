import { Button, Group, Paper, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { loyaltyKeys } from './loyalty.queries';
import { formatUnits } from './money';
import { FormAlert, LoadMore, Saved, StatusBadge } from './parts';

const STATUSES = ['active', 'spent', 'expired'] as const;
type Status = (typeof STATUSES)[number];

export function CertificateList({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const [status, setStatus] = useState<string | null>(null);
  const [pool, setPool] = useState('');
  const [poolError, setPoolError] = useState<string | undefined>(undefined);
  const [filters, setFilters] = useState<{ status?: Status; pool?: number }>({});
  const list = useInfiniteQuery({
    queryKey: [...loyaltyKeys.certificates(shopId), 'list', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/certificates', {
          params: { path: { shop_id: shopId }, query: { ...filters, ...(pageParam === undefined ? {} : { cursor: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const money = (n: number) => formatUnits(n, shop, language);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('loyalty.certs.list')}
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const poolText = pool.trim();
          if (poolText !== '' && !/^[1-9][0-9]{0,15}$/.test(poolText)) {
            setPoolError(t('loyalty.certs.poolIdInvalid'));
            return;
          }
          setPoolError(undefined);
          setFilters({
            ...(status === null ? {} : { status: status as Status }),
            ...(poolText === '' ? {} : { pool: Number(poolText) }),
          });
        }}
      >
        <Group align="flex-end">
          <Select
            label={t('loyalty.certs.status')}
            placeholder={t('loyalty.any')}
            data={STATUSES.map((s) => ({ value: s, label: t(`loyalty.certs.status.${s}`) }))}
            value={status}
            onChange={setStatus}
            clearable
            w={200}
          />
          <TextInput
            label={t('loyalty.certs.poolId')}
            inputMode="numeric"
            maxLength={16}
            w={160}
            value={pool}
            onChange={(e) => setPool(e.currentTarget.value)}
            error={poolError}
          />
          <Button type="submit" variant="default">
            {t('loyalty.filter')}
          </Button>
        </Group>
      </form>
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <Empty>{t('loyalty.certs.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label={t('loyalty.certs.list')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.certs.code')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.status')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.amount')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.balance')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.pool')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.expires')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td ff="monospace">{c.code}</Table.Td>
                <Table.Td>
                  <StatusBadge status={c.status} label={t(`loyalty.certs.status.${c.status}`)} />
                </Table.Td>
                <Table.Td>{money(c.amount)}</Table.Td>
                <Table.Td>{money(c.balance)}</Table.Td>
                <Table.Td>{c.pool_id ?? t('common.none')}</Table.Td>
                <Table.Td>{c.expires_at ? formatDateTime(c.expires_at, shop, language) : t('loyalty.certs.never')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} />
    </Stack>
  );
}

export function PoolList({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const key = [...loyaltyKeys.certificates(shopId), 'pools'];
  const list = useInfiniteQuery({
    queryKey: key,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/certificate-pools', {
          params: { path: { shop_id: shopId }, query: pageParam === undefined ? {} : { cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/certificate-pools', { params: { path: { shop_id: shopId } }, body: { name: name.trim() } }),
      ),
    onSuccess: (pool) => {
      setMade(t('loyalty.certs.poolMade', { name: pool.name, id: pool.id }));
      setName('');
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const failure = failureAt(create.error, ['name'] as const, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMade(null);
    create.mutate();
  };
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('loyalty.certs.pools')}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={submit} noValidate>
          <FormAlert message={failure.form} />
          <Saved shown={made !== null}>{made ?? ''}</Saved>
          <Group align="flex-start">
            <TextInput
              label={t('loyalty.certs.poolName')}
              required
              maxLength={255}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={failure.field?.name === 'name' ? failure.field.message : undefined}
            />
            <Button type="submit" mt={24} loading={create.isPending}>
              {t('loyalty.certs.createPool')}
            </Button>
          </Group>
        </form>
      </Paper>
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <Empty>{t('loyalty.certs.poolsEmpty')}</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label={t('loyalty.certs.pools')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.certs.poolId')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.certs.poolName')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.id}</Table.Td>
                <Table.Td>{p.name}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} />
    </Stack>
  );
}
