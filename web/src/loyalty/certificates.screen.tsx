import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Loading } from '../ui/states';
import { CertificateList, PoolList } from './certificate-lists';
import { failureAt } from './form';
import { isStatus, loyaltyKeys, useShopLocale } from './loyalty.queries';
import { formatUnits, localToIso, parseUnits } from './money';
import { FormAlert, Saved } from './parts';

/** Gift certificates: look one up by code, issue one, list them by pool and status, make pools. */
export function CertificatesScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  return (
    <Page title={t('loyalty.certs.title')} hint={t('loyalty.certs.hint')}>
      {!shop && <Loading />}
      {shop && (
        <>
          <Lookup shopId={shopId} shop={shop} />
          <Issue shopId={shopId} shop={shop} />
          <CertificateList shopId={shopId} shop={shop} />
          <PoolList shopId={shopId} />
        </>
      )}
    </Page>
  );
}

function Lookup({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const [code, setCode] = useState('');
  const find = useMutation({
    mutationFn: (text: string) =>
      unwrap(api.GET('/admin/v1/shops/{shop_id}/certificates/{code}', { params: { path: { shop_id: shopId, code: text } } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() !== '') find.mutate(code.trim());
  };
  const found = find.data;
  const money = (n: number) => formatUnits(n, shop, language);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('loyalty.certs.lookup')}
          </Title>
          <Group align="flex-end">
            <TextInput label={t('loyalty.certs.code')} maxLength={64} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
            <Button type="submit" variant="default" loading={find.isPending}>
              {t('loyalty.certs.find')}
            </Button>
          </Group>
          {find.isError && (
            <FormAlert message={isStatus(find.error, 404) ? t('loyalty.certs.notFound') : failureAt(find.error, [], t).form} />
          )}
          {found && !find.isPending && (
            <SimpleGrid cols={{ base: 2, sm: 4 }} aria-live="polite">
              <Fact label={t('loyalty.certs.code')} value={found.code} />
              <Fact label={t('loyalty.certs.amount')} value={money(found.amount)} />
              <Fact label={t('loyalty.certs.balance')} value={money(found.balance)} />
              <Fact label={t('loyalty.certs.held')} value={money(found.held)} />
              <Fact
                label={t('loyalty.certs.expires')}
                value={found.expires_at ? formatDateTime(found.expires_at, shop, language) : t('loyalty.certs.never')}
              />
              <Fact label={t('loyalty.certs.pool')} value={found.pool_id === null ? t('common.none') : String(found.pool_id)} />
              <Fact label={t('loyalty.certs.created')} value={formatDateTime(found.created_at, shop, language)} />
            </SimpleGrid>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function Fact({ label, value }: { readonly label: string; readonly value: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

const FIELDS = ['code', 'amount', 'pool_id', 'expires_at'] as const;

function Issue({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ code: '', amount: '', pool: '', expires: '' });
  const [local, setLocal] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const issue = useMutation({
    mutationFn: (body: { code: string; amount: number; pool_id?: number; expires_at?: string }) =>
      unwrap(api.POST('/admin/v1/shops/{shop_id}/certificates', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: (answer) => {
      setMade(answer.code);
      setForm({ code: '', amount: '', pool: '', expires: '' });
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.certificates(shopId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    setMade(null);
    const amount = parseUnits(form.amount);
    if (amount === null) return setLocal(t('loyalty.amountInvalid'));
    const expires = form.expires === '' ? null : localToIso(form.expires, shop.timezone);
    issue.mutate({
      code: form.code.trim(),
      amount,
      ...(form.pool.trim() ? { pool_id: Number(form.pool.trim()) } : {}),
      ...(expires ? { expires_at: expires } : {}),
    });
  };
  const failure = failureAt(issue.error, FIELDS, t);
  const at = (f: (typeof FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('loyalty.certs.issue')}
          </Title>
          <FormAlert message={failure.form} />
          <Saved shown={made !== null && !issue.isPending}>{t('loyalty.certs.issued', { code: made ?? '' })}</Saved>
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.certs.code')}
              required
              maxLength={64}
              value={form.code}
              onChange={(e) => setForm({ ...form, code: e.currentTarget.value })}
              error={at('code')}
            />
            <TextInput
              label={t('loyalty.certs.amountIn', { currency: shop.currency })}
              required
              inputMode="decimal"
              maxLength={20}
              value={form.amount}
              onChange={(e) => setForm({ ...form, amount: e.currentTarget.value })}
              error={local ?? at('amount')}
            />
            <TextInput
              label={t('loyalty.certs.poolId')}
              inputMode="numeric"
              maxLength={16}
              value={form.pool}
              onChange={(e) => setForm({ ...form, pool: e.currentTarget.value })}
              error={at('pool_id')}
            />
            <TextInput
              type="datetime-local"
              label={t('loyalty.certs.expiresIn', { zone: shop.timezone })}
              value={form.expires}
              onChange={(e) => setForm({ ...form, expires: e.currentTarget.value })}
              error={at('expires_at')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={issue.isPending}>
              {t('loyalty.certs.issueButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
