import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDay } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { describeFailure, Empty, Failure, Loading } from '../ui/states';
import { loyaltyKeys, useShopLocale, type Plan } from './loyalty.queries';
import { formatUnits } from './money';
import { LoadMore, StatusBadge } from './parts';
import { CreatePlan, EditBenefits, Subscribe } from './subscription-forms';
import { subscriptionStatusOptions, type SubscriptionStatus } from './subscriptions.screen';

/** A paid subscription: its status, its plans with their benefits, and its members (paged). */
export function SubscriptionScreen() {
  const { t } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const queryClient = useQueryClient();
  const path = { shop_id: shopId, code };
  const sub = useQuery({
    queryKey: loyaltyKeys.subscription(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/subscriptions/{code}', { params: { path } })),
  });
  const setStatus = useMutation({
    mutationFn: (status: SubscriptionStatus) =>
      unwrap(api.PATCH('/admin/v1/shops/{shop_id}/subscriptions/{code}', { params: { path }, body: { status } })),
    onSuccess: (answer) => {
      queryClient.setQueryData(loyaltyKeys.subscription(shopId, code), answer);
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.subscriptions(shopId) });
    },
  });
  return (
    <Page title={sub.data ? t('loyalty.subs.oneTitle', { name: sub.data.name }) : t('loyalty.subs.title')}>
      <Anchor component={Link} to={`/shops/${shopId}/subscriptions`}>
        {t('loyalty.subs.back')}
      </Anchor>
      {sub.isPending && <Loading />}
      {sub.isError && <Failure error={sub.error} onRetry={() => void sub.refetch()} />}
      {sub.data && (
        <Group align="flex-end">
          <Select
            label={t('loyalty.subs.status')}
            data={subscriptionStatusOptions(t)}
            value={sub.data.status}
            onChange={(v) => v && setStatus.mutate(v)}
            allowDeselect={false}
            disabled={sub.data.status === 'archived'}
            w={220}
          />
          {setStatus.isError && (
            <Text role="alert" c="red.8">
              {describeFailure(setStatus.error, t)}
            </Text>
          )}
        </Group>
      )}
      {sub.data && <Plans shopId={shopId} code={code} />}
      {sub.data && <Members shopId={shopId} code={code} />}
    </Page>
  );
}

function Plans({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t } = useI18n();
  const plans = useQuery({
    queryKey: [...loyaltyKeys.subscription(shopId, code), 'plans'],
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/subscriptions/{code}/plans', { params: { path: { shop_id: shopId, code } } })),
  });
  const [editing, setEditing] = useState<string | null>(null);
  const edited = plans.data?.plans.find((p) => p.code === editing);
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('loyalty.subs.plans')}
      </Title>
      <CreatePlan shopId={shopId} code={code} />
      {plans.isPending && <Loading />}
      {plans.isError && <Failure error={plans.error} onRetry={() => void plans.refetch()} />}
      {plans.data && plans.data.plans.length === 0 && <Empty>{t('loyalty.subs.plansEmpty')}</Empty>}
      {plans.data && plans.data.plans.length > 0 && (
        <Table striped aria-label={t('loyalty.subs.plans')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.subs.code')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.name')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.period')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.status')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.benefits')}</Table.Th>
              <Table.Th scope="col">{t('people.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plans.data.plans.map((p) => (
              <Table.Tr key={p.code}>
                <Table.Td>{p.code}</Table.Td>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td>{t('loyalty.subs.days', { days: p.period_days })}</Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} label={t(`loyalty.subs.status.${p.status}`)} />
                </Table.Td>
                <Table.Td>
                  <Benefits shopId={shopId} plan={p} />
                </Table.Td>
                <Table.Td>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => setEditing(p.code)}
                    aria-label={t('loyalty.subs.editBenefitsOf', { plan: p.code })}
                  >
                    {t('loyalty.subs.editBenefits')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {edited && (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('loyalty.subs.editBenefitsOf', { plan: edited.code })}
            </Title>
            <EditBenefits key={edited.code} shopId={shopId} code={code} plan={edited} onDone={() => setEditing(null)} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

function Benefits({ shopId, plan }: { readonly shopId: string; readonly plan: Plan }) {
  const { t, language } = useI18n();
  const shop = useShopLocale(shopId);
  return (
    <Stack gap={2}>
      {plan.benefits.map((b) => (
        <Text key={b.code} size="sm">
          {b.name}:{' '}
          {b.data_type === 'boolean'
            ? b.value
              ? t('loyalty.yes')
              : t('loyalty.no')
            : b.data_type === 'integer'
              ? b.value
              : t('loyalty.subs.promosBenefit', {
                  promotions: b.promotion_ids.join(', '),
                  savings: shop ? formatUnits(b.savings_limit, shop, language) : b.savings_limit,
                  uses: b.usage_limit,
                })}
        </Text>
      ))}
    </Stack>
  );
}

function Members({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const key = [...loyaltyKeys.subscription(shopId, code), 'members'];
  const members = useInfiniteQuery({
    queryKey: key,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/subscriptions/{code}/members', {
          params: { path: { shop_id: shopId, code }, query: { after: pageParam, limit: 50 } },
        }),
      ),
    getNextPageParam: (last) => last.next_after ?? undefined,
  });
  const leave = useMutation({
    mutationFn: (identifier: string) =>
      unwrap(
        api.DELETE('/admin/v1/shops/{shop_id}/subscriptions/{code}/members/{identifier}', {
          params: { path: { shop_id: shopId, code, identifier } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const rows = members.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('loyalty.subs.members')}
      </Title>
      <Subscribe shopId={shopId} code={code} onDone={() => void queryClient.invalidateQueries({ queryKey: key })} />
      {leave.isError && (
        <Text role="alert" c="red.8">
          {describeFailure(leave.error, t)}
        </Text>
      )}
      {members.isPending && <Loading />}
      {members.isError && <Failure error={members.error} onRetry={() => void members.refetch()} />}
      {members.data && rows.length === 0 && <Empty>{t('loyalty.subs.membersEmpty')}</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label={t('loyalty.subs.members')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.members.identifier')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.plan')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.paidTill')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.resets')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.status')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.leave')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m.identifier}>
                <Table.Td>{m.identifier}</Table.Td>
                <Table.Td>{m.plan}</Table.Td>
                <Table.Td>{formatDay(m.paid_till, language)}</Table.Td>
                <Table.Td>{formatDay(m.limits_reset_date, language)}</Table.Td>
                <Table.Td>
                  <StatusBadge
                    status={m.active ? 'active' : 'expired'}
                    label={m.active ? t('loyalty.subs.paid') : t('loyalty.subs.lapsed')}
                  />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={t('loyalty.subs.leaveOf', { identifier: m.identifier })}
                    onClick={() => {
                      if (window.confirm(t('loyalty.subs.leaveConfirm', { identifier: m.identifier }))) leave.mutate(m.identifier);
                    }}
                  >
                    {t('loyalty.subs.leave')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore hasMore={members.hasNextPage} loading={members.isFetchingNextPage} onClick={() => void members.fetchNextPage()} />
    </Stack>
  );
}
