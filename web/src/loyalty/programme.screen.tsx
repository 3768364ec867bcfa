import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { Levels } from './levels';
import { loyaltyKeys, useShopLocale, type Settings } from './loyalty.queries';
import { formatUnits, parseUnits } from './money';
import { FormAlert, Saved } from './parts';

/** The loyalty programme: what it owes (liabilities), its settings, and its levels. */
export function ProgrammeScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const settings = useQuery({
    queryKey: loyaltyKeys.settings(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/loyalty', { params: { path: { shop_id: shopId } } })),
  });
  return (
    <Page title={t('loyalty.programme.title')} hint={t('loyalty.programme.hint')}>
      {shop && <Liabilities shopId={shopId} shop={shop} />}
      <Title order={2} size="h3">
        {t('loyalty.programme.settings')}
      </Title>
      {(settings.isPending || !shop) && !settings.isError && <Loading />}
      {settings.isError && <Failure error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.data && shop && <SettingsForm shopId={shopId} shop={shop} settings={settings.data} />}
      {shop && <Levels shopId={shopId} shop={shop} />}
    </Page>
  );
}

function Liabilities({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const owed = useQuery({
    queryKey: loyaltyKeys.liabilities(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/loyalty/liabilities', { params: { path: { shop_id: shopId } } })),
  });
  if (owed.isPending) return <Loading />;
  if (owed.isError) return <Failure error={owed.error} onRetry={() => void owed.refetch()} />;
  const cell = (label: string, value: string) => (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t('loyalty.programme.liabilities')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        {cell(t('loyalty.programme.outstanding'), formatUnits(owed.data.outstanding, shop, language))}
        {cell(t('loyalty.programme.pending'), formatUnits(owed.data.pending, shop, language))}
        {cell(t('loyalty.programme.expiring'), formatUnits(owed.data.expiring_30_days, shop, language))}
        {cell(t('loyalty.programme.members'), new Intl.NumberFormat(language).format(owed.data.members))}
      </SimpleGrid>
    </Stack>
  );
}

const FIELDS = ['reward_percent', 'max_bonus_share_percent', 'bonus_value', 'bonus_lifetime_days', 'reward_pending_days'] as const;
type Field = (typeof FIELDS)[number];

function SettingsForm({ shopId, shop, settings }: { readonly shopId: string; readonly shop: ShopLocale; readonly settings: Settings }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>({
    reward_percent: String(settings.reward_percent),
    max_bonus_share_percent: String(settings.max_bonus_share_percent),
    bonus_value: String(settings.bonus_value),
    bonus_lifetime_days: settings.bonus_lifetime_days === null ? '' : String(settings.bonus_lifetime_days),
    reward_pending_days: String(settings.reward_pending_days),
  });
  const [local, setLocal] = useState<{ field: Field; message: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: Settings) => unwrap(api.PUT('/admin/v1/shops/{shop_id}/loyalty', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: (answer) => {
      queryClient.setQueryData(loyaltyKeys.settings(shopId), answer);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setLocal(null);
    const numbers: Partial<Record<Field, number | null>> = {};
    for (const field of FIELDS) {
      const text = values[field].trim();
      if (field === 'bonus_lifetime_days' && text === '') {
        numbers[field] = null;
        continue;
      }
      const n = field.endsWith('_days') ? (/^\d+$/.test(text) ? Number(text) : null) : parseUnits(text);
      if (n === null) return setLocal({ field, message: t('loyalty.programme.numberInvalid') });
      numbers[field] = n;
    }
    save.mutate(numbers as Settings);
  };
  const failure = failureAt(save.error, FIELDS, t);
  const at = (f: Field) => (local?.field === f ? local.message : failure.field?.name === f ? failure.field.message : undefined);
  const input = (field: Field, label: string, description?: string) => (
    <TextInput
      label={label}
      description={description}
      inputMode="decimal"
      maxLength={20}
      value={values[field]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [field]: value }));
      }}
      error={at(field)}
    />
  );
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={560} gap="sm">
          <FormAlert message={failure.form} />
          <Saved shown={saved && !save.isPending}>{t('loyalty.saved')}</Saved>
          {input('reward_percent', t('loyalty.programme.rewardPercent'))}
          {input('max_bonus_share_percent', t('loyalty.programme.maxShare'))}
          {input('bonus_value', t('loyalty.programme.bonusValue', { currency: shop.currency }))}
          {input('bonus_lifetime_days', t('loyalty.programme.lifetime'), t('loyalty.programme.lifetimeHint'))}
          {input('reward_pending_days', t('loyalty.programme.pendingDays'))}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('loyalty.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
