import { Anchor, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { loyaltyKeys, useShopLocale } from './loyalty.queries';
import { formatUnits, parseUnits } from './money';
import { FormAlert, LoadMore, Saved, StatusBadge } from './parts';

/** A member: balance, pending bonuses and level, a manual credit or debit with its reason, and the ledger (paged). */
export function MemberScreen() {
  const { t, language } = useI18n();
  const { shopId = '', identifier = '' } = useParams();
  const shop = useShopLocale(shopId);
  const member = useQuery({
    queryKey: loyaltyKeys.member(shopId, identifier),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/loyalty/members/{identifier}', { params: { path: { shop_id: shopId, identifier } } })),
  });
  return (
    <Page title={t('loyalty.member.title', { identifier })}>
      <Anchor component={Link} to={`/shops/${shopId}/loyalty/members`}>
        {t('loyalty.member.back')}
      </Anchor>
      {(member.isPending || !shop) && !member.isError && <Loading />}
      {member.isError && <Failure error={member.error} onRetry={() => void member.refetch()} />}
      {member.data && shop && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Figure label={t('loyalty.member.balance')} value={formatUnits(member.data.balance, shop, language)} />
            <Figure label={t('loyalty.member.pending')} value={formatUnits(member.data.pending, shop, language)} />
            <Figure label={t('loyalty.member.level')} value={member.data.level ? member.data.level.name : t('loyalty.member.noLevel')} />
          </SimpleGrid>
          <Adjust shopId={shopId} identifier={identifier} shop={shop} />
          <Ledger shopId={shopId} identifier={identifier} shop={shop} />
        </>
      )}
    </Page>
  );
}

function Figure({ label, value }: { readonly label: string; readonly value: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`figure-${label}`}>
        {value}
      </Text>
    </Paper>
  );
}

const FIELDS = ['amount', 'reason'] as const;

/** A manual credit or debit: an amount in currency units (as the API takes it) and a reason, required both ways. */
function Adjust({ shopId, identifier, shop }: { readonly shopId: string; readonly identifier: string; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<{ field: (typeof FIELDS)[number]; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const post = useMutation({
    mutationFn: (body: { amount: number; reason: string }) => {
      const path = { shop_id: shopId, identifier };
      return mode === 'credit'
        ? unwrap(api.POST('/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/bonuses', { params: { path }, body }))
        : unwrap(api.POST('/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/bonuses/debit', { params: { path }, body }));
    },
    onSuccess: (answer) => {
      setDone(t('loyalty.member.posted', { balance: formatUnits(answer.balance, shop, language) }));
      setAmount('');
      setReason('');
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.member(shopId, identifier) });
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.members(shopId), exact: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    setDone(null);
    const value = parseUnits(amount);
    if (value === null || value <= 0) return setLocal({ field: 'amount', message: t('loyalty.amountInvalid') });
    if (reason.trim() === '') return setLocal({ field: 'reason', message: t('loyalty.member.reasonRequired') });
    post.mutate({ amount: value, reason: reason.trim() });
  };
  const failure = failureAt(post.error, FIELDS, t);
  const at = (f: (typeof FIELDS)[number]) =>
    local?.field === f ? local.message : failure.field?.name === f ? failure.field.message : undefined;
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={560} gap="sm">
          <Title order={2} size="h4">
            {t('loyalty.member.adjust')}
          </Title>
          <FormAlert message={failure.form} />
          <Saved shown={done !== null && !post.isPending}>{done ?? ''}</Saved>
          <SegmentedControl
            aria-label={t('loyalty.member.adjustKind')}
            value={mode}
            onChange={(v) => setMode(v)}
            data={[
              { value: 'credit', label: t('loyalty.member.credit') },
              { value: 'debit', label: t('loyalty.member.debit') },
            ]}
          />
          <TextInput
            label={t('loyalty.member.amount', { currency: shop.currency })}
            inputMode="decimal"
            required
            maxLength={20}
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={at('amount')}
          />
          <Textarea
            label={t('loyalty.member.reason')}
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={at('reason')}
          />
          <Group>
            <Button type="submit" loading={post.isPending}>
              {mode === 'credit' ? t('loyalty.member.doCredit') : t('loyalty.member.doDebit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Ledger({ shopId, identifier, shop }: { readonly shopId: string; readonly identifier: string; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const ledger = useInfiniteQuery({
    queryKey: [...loyaltyKeys.member(shopId, identifier), 'ledger'],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/transactions', {
          params: { path: { shop_id: shopId, identifier }, query: { before: pageParam, limit: 50 } },
        }),
      ),
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const rows = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('loyalty.member.ledger')}
      </Title>
      {ledger.isPending && <Loading />}
      {ledger.isError && <Failure error={ledger.error} onRetry={() => void ledger.refetch()} />}
      {ledger.data && rows.length === 0 && <Empty>{t('loyalty.member.ledgerEmpty')}</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label={t('loyalty.member.ledger')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.member.when')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.kind')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.amountColumn')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.status')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.order')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.reasonColumn')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.member.expires')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((line) => (
              <Table.Tr key={line.id}>
                <Table.Td>{formatDateTime(line.created_at, shop, language)}</Table.Td>
                <Table.Td>{kindLabel(line.kind, t)}</Table.Td>
                <Table.Td>{formatUnits(line.amount, shop, language)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={line.status} label={t(`loyalty.member.status.${line.status}`)} />
                </Table.Td>
                <Table.Td>{line.order_id ?? t('common.none')}</Table.Td>
                <Table.Td>{line.reason ?? t('common.none')}</Table.Td>
                <Table.Td>{line.expires_at ? formatDateTime(line.expires_at, shop, language) : t('common.none')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={ledger.hasNextPage} loading={ledger.isFetchingNextPage} onClick={() => void ledger.fetchNextPage()} />
    </Stack>
  );
}

const KINDS = [
  'manual',
  'order_reward',
  'event_reward',
  'referral',
  'refund',
  'debit',
  'write_off',
  'expiry',
  'cancellation',
  'order_hold',
] as const;

function kindLabel(kind: string, t: ReturnType<typeof useI18n>['t']): string {
  const known = KINDS.find((k) => k === kind);
  return known ? t(`loyalty.member.kind.${known}`) : kind;
}
