import { Button, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, InlineFailure, Loading } from '../ui/states';
import { failureAt } from './form';
import { downloadFile, loyaltyKeys, type Promotion } from './loyalty.queries';
import { localToIso } from './money';
import { FormAlert, LoadMore, Saved } from './parts';

const PAGE = 100;
const FIELDS = ['count', 'pattern', 'usage_limit', 'ends_at'] as const;

/** A promotion's promo codes: generate N from a pattern, list them by code (paged), download them as CSV. */
export function PromoCodes({
  shopId,
  shop,
  promotion,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly promotion: Promotion;
}) {
  const { t, language } = useI18n();
  const id = String(promotion.id);
  const codes = useInfiniteQuery({
    queryKey: loyaltyKeys.codes(shopId, id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/promotions/{id}/promo-codes', {
          params: { path: { shop_id: shopId, id }, query: { after: pageParam, limit: PAGE } },
        }),
      ),
    getNextPageParam: (last) => last.next_after ?? undefined,
  });
  const rows = codes.data?.pages.flatMap((p) => p.promo_codes) ?? [];
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('loyalty.codes.title')}
      </Title>
      {promotion.status !== 'archived' && <Generate shopId={shopId} shop={shop} promotionId={id} />}
      <Export shopId={shopId} promotionId={id} />
      {codes.isPending && <Loading />}
      {codes.isError && <Failure error={codes.error} onRetry={() => void codes.refetch()} />}
      {codes.data && rows.length === 0 && <Empty>{t('loyalty.codes.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label={t('loyalty.codes.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.codes.code')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.codes.used')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.codes.limit')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.codes.endsAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.code}>
                <Table.Td ff="monospace">{c.code}</Table.Td>
                <Table.Td>{c.blocked > 0 ? t('loyalty.codes.usedHeld', { used: c.used, held: c.blocked }) : c.used}</Table.Td>
                <Table.Td>{c.usage_limit ?? t('loyalty.codes.unlimited')}</Table.Td>
                <Table.Td>{c.ends_at ? formatDateTime(c.ends_at, shop, language) : t('common.none')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {rows.length > 0 && <span role="status">{t('loyalty.codes.shown', { count: rows.length })}</span>}
      <LoadMore hasMore={codes.hasNextPage} loading={codes.isFetchingNextPage} onClick={() => void codes.fetchNextPage()} />
    </Stack>
  );
}

function Generate({ shopId, shop, promotionId }: { readonly shopId: string; readonly shop: ShopLocale; readonly promotionId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [count, setCount] = useState('100');
  const [pattern, setPattern] = useState('PROMO-####-????');
  const [usageLimit, setUsageLimit] = useState('1');
  const [endsAt, setEndsAt] = useState('');
  const [made, setMade] = useState<number | null>(null);
  const generate = useMutation({
    mutationFn: () => {
      const limit = usageLimit.trim() === '' ? null : Number.parseInt(usageLimit, 10);
      const ends = endsAt === '' ? null : localToIso(endsAt, shop.timezone);
      return unwrap(
        api.POST('/admin/v1/shops/{shop_id}/promotions/{id}/promo-codes/generate', {
          params: { path: { shop_id: shopId, id: promotionId } },
          body: { count: Number(count.trim()), pattern: pattern.trim(), usage_limit: limit, ...(ends ? { ends_at: ends } : {}) },
        }),
      );
    },
    onSuccess: (answer) => {
      setMade(answer.count);
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.codes(shopId, promotionId) });
    },
  });
  const failure = failureAt(generate.error, FIELDS, t);
  const at = (f: (typeof FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMade(null);
    generate.mutate();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormAlert message={failure.form} />
          <Saved shown={made !== null && !generate.isPending}>{t('loyalty.codes.generated', { count: made ?? 0 })}</Saved>
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.codes.count')}
              description={t('loyalty.codes.countHint')}
              inputMode="numeric"
              required
              maxLength={6}
              value={count}
              onChange={(e) => setCount(e.currentTarget.value)}
              error={at('count')}
            />
            <TextInput
              label={t('loyalty.codes.pattern')}
              description={t('loyalty.codes.patternHint')}
              required
              maxLength={64}
              value={pattern}
              onChange={(e) => setPattern(e.currentTarget.value)}
              error={at('pattern')}
            />
          </Group>
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.codes.usageLimit')}
              description={t('loyalty.codes.usageLimitHint')}
              inputMode="numeric"
              maxLength={10}
              value={usageLimit}
              onChange={(e) => setUsageLimit(e.currentTarget.value)}
              error={at('usage_limit')}
            />
            <TextInput
              type="datetime-local"
              label={t('loyalty.codes.endsAtZone', { zone: shop.timezone })}
              value={endsAt}
              onChange={(e) => setEndsAt(e.currentTarget.value)}
              error={at('ends_at')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={generate.isPending}>
              {t('loyalty.codes.generate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Every code of the promotion as a CSV file (GET …/promo-codes.csv), streamed by the server. */
function Export({ shopId, promotionId }: { readonly shopId: string; readonly promotionId: string }) {
  const { t } = useI18n();
  const download = useMutation({
    mutationFn: () =>
      downloadFile(
        `/admin/v1/shops/${encodeURIComponent(shopId)}/promotions/${promotionId}/promo-codes.csv`,
        `promotion-${promotionId}-promo-codes.csv`,
      ),
  });
  return (
    <Group>
      <Button variant="default" loading={download.isPending} onClick={() => download.mutate()}>
        {t('loyalty.codes.export')}
      </Button>
      {download.isError && <InlineFailure error={download.error} />}
    </Group>
  );
}
