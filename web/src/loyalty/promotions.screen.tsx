import { Anchor, Button, Group, Paper, Select, Table, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../i18n/format';
import { useI18n, type Translate } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { loyaltyKeys, useShopLocale, type Promotion } from './loyalty.queries';
import { formatUnits } from './money';
import { LoadMore, StatusBadge } from './parts';

export const PROMOTION_STATUSES = ['draft', 'scheduled', 'active', 'inactive', 'archived'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

export function statusOptions(t: Translate) {
  return PROMOTION_STATUSES.map((s) => ({ value: s, label: t(`loyalty.promo.status.${s}`) }));
}

/** A shop's promotions by id, filtered by status and name on the server, 50 a page. */
export function PromotionsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const [status, setStatus] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const list = useInfiniteQuery({
    queryKey: [...loyaltyKeys.promotions(shopId), { status, search }],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/promotions', {
          params: {
            path: { shop_id: shopId },
            query: { status: (status ?? undefined) as PromotionStatus | undefined, q: search || undefined, after: pageParam },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_after ?? undefined,
  });
  const rows: Promotion[] = list.data?.pages.flatMap((p) => p.promotions) ?? [];
  const discount = (p: Promotion) =>
    p.discount.type === 'percent'
      ? `${p.discount.value}%`
      : shop
        ? formatUnits(p.discount.value, shop, language)
        : String(p.discount.value);
  return (
    <Page title={t('loyalty.promo.title')} hint={t('loyalty.promo.hint')}>
      <Paper withBorder p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(q.trim());
          }}
        >
          <Group align="flex-end">
            <TextInput label={t('loyalty.promo.search')} maxLength={255} value={q} onChange={(e) => setQ(e.currentTarget.value)} />
            <Select
              label={t('loyalty.promo.status')}
              placeholder={t('loyalty.any')}
              data={statusOptions(t)}
              value={status}
              onChange={setStatus}
              clearable
            />
            <Button type="submit" variant="default">
              {t('loyalty.filter')}
            </Button>
            <Button component={Link} to={`/shops/${shopId}/promotions/new`} ml="auto">
              {t('loyalty.promo.new')}
            </Button>
          </Group>
        </form>
      </Paper>
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && rows.length === 0 && <Empty>{t('loyalty.promo.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.promo.name')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.promo.status')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.promo.discount')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.promo.byCode')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.promo.period')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/promotions/${p.id}`}>
                    {p.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} label={t(`loyalty.promo.status.${p.status}`)} />
                </Table.Td>
                <Table.Td>{discount(p)}</Table.Td>
                <Table.Td>{p.by_promo_code ? t('loyalty.yes') : t('loyalty.no')}</Table.Td>
                <Table.Td>
                  {p.starts_at === null && p.ends_at === null
                    ? t('loyalty.promo.runsAlways')
                    : `${shop && p.starts_at ? formatDateTime(p.starts_at, shop, language) : t('loyalty.promo.runsOpen')} – ${
                        shop && p.ends_at ? formatDateTime(p.ends_at, shop, language) : t('loyalty.promo.runsOpen')
                      }`}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} />
    </Page>
  );
}
