import { Alert, Button, Checkbox, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { RotateSecret } from './rotate-secret';
import { shopKeys, useShop, type Shop } from './shop.queries';

export function ShopSettingsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const can = usePermissions();
  return (
    <Page title={shop.data ? `${t('settings.title')}: ${shop.data.name}` : t('settings.title')}>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {/* Keyed by the saved shop, so that the form starts again from what the server holds. */}
      {shop.data && <SettingsForm key={JSON.stringify(shop.data)} shop={shop.data} />}
      {shop.data && can.manageShops && <RotateSecret shopId={shopId} />}
    </Page>
  );
}

const FIELDS = ['name', 'active', 'restricted', 'paid_till'] as const;

function SettingsForm({ shop }: { readonly shop: Shop }) {
  const { t } = useI18n();
  // Only owners and admins change a shop (docs/admin-users.md "Roles"): the others see it read-only.
  const readOnly = !usePermissions().manageShops;
  const queryClient = useQueryClient();
  const [name, setName] = useState(shop.name);
  const [active, setActive] = useState(shop.active);
  const [restricted, setRestricted] = useState(shop.restricted);
  const [paidTill, setPaidTill] = useState(shop.paid_till ?? '');
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/admin/v1/shops/{shop_id}', {
          params: { path: { shop_id: shop.shop_id } },
          body: { name, active, restricted, paid_till: paidTill === '' ? null : paidTill },
        }),
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(shopKeys.one(shop.shop_id), updated);
      void queryClient.invalidateQueries({ queryKey: shopKeys.all, exact: true });
      setSaved(true);
    },
  });
  const failure = formFailure(save.error, FIELDS, t);
  const fieldError = (field: (typeof FIELDS)[number]) => (failure.field?.name === field ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={480}>
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          {readOnly && <Alert color="gray">{t('people.readOnlyRole')}</Alert>}
          {saved && !save.isPending && (
            <Alert color="green" role="status">
              {t('settings.saved')}
            </Alert>
          )}
          <TextInput
            label={t('settings.name')}
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError('name')}
            readOnly={readOnly}
          />
          <TextInput label={t('settings.currency')} value={shop.currency} readOnly description={t('settings.fixedAtCreation')} />
          <TextInput label={t('settings.timezone')} value={shop.timezone} readOnly description={t('settings.fixedAtCreation')} />
          <Checkbox
            label={t('settings.active')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
            disabled={readOnly}
            error={fieldError('active')}
          />
          <Checkbox
            label={t('settings.restricted')}
            checked={restricted}
            onChange={(e) => setRestricted(e.currentTarget.checked)}
            disabled={readOnly}
            error={fieldError('restricted')}
          />
          <TextInput
            label={t('settings.paidTill')}
            description={t('settings.paidTillHint')}
            type="date"
            value={paidTill}
            onChange={(e) => setPaidTill(e.currentTarget.value)}
            readOnly={readOnly}
            error={fieldError('paid_till')}
          />
          {!readOnly && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('settings.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
