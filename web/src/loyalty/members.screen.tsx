import { Anchor, Button, Group, Paper, Select, Table, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { loyaltyKeys, useShopLocale } from './loyalty.queries';
import { formatUnits, localToIso, parseUnits } from './money';
import { FormAlert, LoadMore } from './parts';

interface Filters {
  readonly q?: string;
  readonly min_balance?: number;
  readonly max_balance?: number;
  readonly joined_from?: string;
  readonly joined_to?: string;
  readonly has_pending?: boolean;
}

const FIELDS = ['q', 'min_balance', 'max_balance', 'joined_from', 'joined_to'] as const;

/** The programme's members, newest first, filtered on the server, a cursor page at a time. */
export function MembersScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const [q, setQ] = useState('');
  const [minBalance, setMinBalance] = useState('');
  const [maxBalance, setMaxBalance] = useState('');
  const [joinedFrom, setJoinedFrom] = useState('');
  const [joinedTo, setJoinedTo] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>({});
  const [local, setLocal] = useState<{ field: string; message: string } | null>(null);
  const list = useInfiniteQuery({
    queryKey: [...loyaltyKeys.members(shopId), filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/loyalty/members', {
          params: { path: { shop_id: shopId }, query: { ...filters, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    const min = minBalance.trim() === '' ? undefined : parseUnits(minBalance);
    const max = maxBalance.trim() === '' ? undefined : parseUnits(maxBalance);
    if (min === null) return setLocal({ field: 'min_balance', message: t('loyalty.amountInvalid') });
    if (max === null) return setLocal({ field: 'max_balance', message: t('loyalty.amountInvalid') });
    const tz = shop?.timezone ?? 'UTC';
    setFilters({
      q: q.trim() || undefined,
      min_balance: min,
      max_balance: max,
      joined_from: joinedFrom ? (localToIso(`${joinedFrom}T00:00`, tz) ?? undefined) : undefined,
      joined_to: joinedTo ? (localToIso(`${joinedTo}T23:59`, tz) ?? undefined) : undefined,
      has_pending: pending === null ? undefined : pending === 'yes',
    });
  };
  const failure = failureAt(list.error, FIELDS, t);
  const at = (f: string) => (local?.field === f ? local.message : failure.field?.name === f ? failure.field.message : undefined);
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const money = (n: number) => (shop ? formatUnits(n, shop, language) : String(n));
  return (
    <Page title={t('loyalty.members.title')} hint={t('loyalty.members.hint')}>
      <Paper withBorder p="md">
        <form onSubmit={apply} noValidate>
          <Group align="flex-start">
            <TextInput
              label={t('loyalty.members.q')}
              maxLength={255}
              value={q}
              onChange={(e) => setQ(e.currentTarget.value)}
              error={at('q')}
            />
            <TextInput
              label={t('loyalty.members.minBalance', { currency: shop?.currency ?? '' })}
              inputMode="decimal"
              maxLength={20}
              w={140}
              value={minBalance}
              onChange={(e) => setMinBalance(e.currentTarget.value)}
              error={at('min_balance')}
            />
            <TextInput
              label={t('loyalty.members.maxBalance', { currency: shop?.currency ?? '' })}
              inputMode="decimal"
              maxLength={20}
              w={140}
              value={maxBalance}
              onChange={(e) => setMaxBalance(e.currentTarget.value)}
              error={at('max_balance')}
            />
            <TextInput
              type="date"
              label={t('loyalty.members.joinedFrom')}
              value={joinedFrom}
              onChange={(e) => setJoinedFrom(e.currentTarget.value)}
              error={at('joined_from')}
            />
            <TextInput
              type="date"
              label={t('loyalty.members.joinedTo')}
              value={joinedTo}
              onChange={(e) => setJoinedTo(e.currentTarget.value)}
              error={at('joined_to')}
            />
            <Select
              label={t('loyalty.members.pending')}
              placeholder={t('loyalty.any')}
              data={[
                { value: 'yes', label: t('loyalty.members.withPending') },
                { value: 'no', label: t('loyalty.members.withoutPending') },
              ]}
              value={pending}
              onChange={setPending}
              clearable
              w={200}
            />
          </Group>
          <Group mt="sm">
            <Button type="submit" variant="default">
              {t('loyalty.filter')}
            </Button>
          </Group>
        </form>
      </Paper>
      <AddMember shopId={shopId} />
      {list.isPending && <Loading />}
      {list.isError && !failure.field && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <Empty>{t('loyalty.members.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.members.identifier')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.members.balance')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.members.pendingAmount')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.members.joined')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m.identifier}>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/loyalty/members/${encodeURIComponent(m.identifier)}`}>
                    {m.identifier}
                  </Anchor>
                </Table.Td>
                <Table.Td>{money(m.balance)}</Table.Td>
                <Table.Td>{money(m.pending)}</Table.Td>
                <Table.Td>{shop ? formatDateTime(m.joined_at, shop, language) : m.joined_at}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} />
    </Page>
  );
}

/** Enrols a member by phone or loyalty id (POST /loyalty/members), then opens it. */
function AddMember({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const [phone, setPhone] = useState('');
  const [loyaltyId, setLoyaltyId] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const failure = failureAt(error, ['phone', 'loyalty_id'] as const, t);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const body = { ...(phone.trim() ? { phone: phone.trim() } : {}), ...(loyaltyId.trim() ? { loyalty_id: loyaltyId.trim() } : {}) };
      const created = await unwrap(api.POST('/admin/v1/shops/{shop_id}/loyalty/members', { params: { path: { shop_id: shopId } }, body }));
      void navigate(`/shops/${shopId}/loyalty/members/${encodeURIComponent(created.identifier)}`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormAlert message={failure.form} />
        <Group align="flex-start">
          <TextInput
            label={t('loyalty.members.phone')}
            maxLength={64}
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            error={failure.field?.name === 'phone' ? failure.field.message : undefined}
          />
          <TextInput
            label={t('loyalty.members.loyaltyId')}
            maxLength={255}
            value={loyaltyId}
            onChange={(e) => setLoyaltyId(e.currentTarget.value)}
            error={failure.field?.name === 'loyalty_id' ? failure.field.message : undefined}
          />
          <Button type="submit" mt={24} loading={busy}>
            {t('loyalty.members.add')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
