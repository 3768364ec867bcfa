import { Anchor, Button, Group, Paper, Select, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { useI18n, type Translate } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { loyaltyKeys } from './loyalty.queries';
import { FormAlert, StatusBadge } from './parts';

export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'archived'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export function subscriptionStatusOptions(t: Translate) {
  return SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: t(`loyalty.subs.status.${s}`) }));
}

/** The shop's paid subscriptions by code (the API answers them all: a shop has a handful), filtered by status. */
export function SubscriptionsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const [status, setStatus] = useState<string | null>(null);
  const list = useQuery({
    queryKey: [...loyaltyKeys.subscriptions(shopId), status],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/subscriptions', {
          params: { path: { shop_id: shopId }, query: { status: (status ?? undefined) as SubscriptionStatus | undefined } },
        }),
      ),
  });
  return (
    <Page title={t('loyalty.subs.title')} hint={t('loyalty.subs.hint')}>
      <CreateSubscription shopId={shopId} />
      <Select
        label={t('loyalty.subs.status')}
        placeholder={t('loyalty.any')}
        data={subscriptionStatusOptions(t)}
        value={status}
        onChange={setStatus}
        clearable
        w={220}
      />
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.subscriptions.length === 0 && <Empty>{t('loyalty.subs.empty')}</Empty>}
      {list.data && list.data.subscriptions.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('loyalty.subs.code')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.name')}</Table.Th>
              <Table.Th scope="col">{t('loyalty.subs.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.subscriptions.map((s) => (
              <Table.Tr key={s.code}>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/subscriptions/${encodeURIComponent(s.code)}`}>
                    {s.code}
                  </Anchor>
                </Table.Td>
                <Table.Td>{s.name}</Table.Td>
                <Table.Td>
                  <StatusBadge status={s.status} label={t(`loyalty.subs.status.${s.status}`)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}

function CreateSubscription({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/subscriptions', {
          params: { path: { shop_id: shopId } },
          body: { code: code.trim(), name: name.trim() },
        }),
      ),
    onSuccess: () => {
      setCode('');
      setName('');
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.subscriptions(shopId) });
    },
  });
  const failure = failureAt(create.error, ['code', 'name'] as const, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormAlert message={failure.form} />
          <Group align="flex-start">
            <TextInput
              label={t('loyalty.subs.code')}
              required
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={failure.field?.name === 'code' ? failure.field.message : undefined}
            />
            <TextInput
              label={t('loyalty.subs.name')}
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={failure.field?.name === 'name' ? failure.field.message : undefined}
            />
            <Button type="submit" mt={24} loading={create.isPending}>
              {t('loyalty.subs.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
