import { Alert, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { mayManageRole, usePermissions } from '../auth/permissions';
import { useSession } from '../auth/session';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { Confirm, describePeopleFailure } from './confirm';
import { CopyOnce } from './copy-once';
import { formatAt } from './dates';
import { RoleShopsFields } from './role-shops-fields';
import { ShopNames } from './shop-names';
import { TokensPanel } from './tokens-panel';
import { userKeys, useUser, type User } from './users.queries';

/** One user: their role, shops and state to change, a new invitation link, removal, and their API tokens. */
export function UserScreen() {
  const { t } = useI18n();
  const id = Number(useParams().userId);
  const user = useUser(id);
  const me = useSession().data?.user;
  const can = usePermissions();
  const manages = user.data !== undefined && can.manageUsers && mayManageRole(me?.role, user.data.role);
  const own = user.data !== undefined && user.data.id === me?.id;
  return (
    <Page title={user.data ? user.data.email : t('people.user.title')}>
      {user.isPending && <Loading />}
      {user.isError && <Failure error={user.error} onRetry={() => void user.refetch()} />}
      {user.data && (
        <>
          <Summary user={user.data} />
          {manages ? <EditUser key={user.data.id} user={user.data} /> : <Text c="dimmed">{t('people.user.readOnly')}</Text>}
          {manages && <ResendInvitation user={user.data} />}
          {manages && !own && <RemoveUser user={user.data} />}
          {(manages || own) && <TokensPanel userId={user.data.id} />}
        </>
      )}
    </Page>
  );
}

function Summary({ user }: { readonly user: User }) {
  const { t, language } = useI18n();
  const state = user.disabled ? 'disabled' : user.status;
  return (
    <Paper withBorder p="md">
      <Stack gap={4}>
        <Text>
          {t('people.role')}: {t(`role.${user.role}`)} · {t('people.state')}: {t(`people.status.${state}`)}
        </Text>
        <Group gap="xs">
          <Text>{t('people.shops')}:</Text>
          <ShopNames shops={user.shops} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('people.created')}: {formatAt(user.created_at, null, language)} · {t('people.lastSignIn')}:{' '}
          {user.last_sign_in_at ? formatAt(user.last_sign_in_at, null, language) : t('people.never')}
        </Text>
      </Stack>
    </Paper>
  );
}

const FIELDS = ['role', 'shops', 'disabled'] as const;

function EditUser({ user }: { readonly user: User }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [role, setRole] = useState(user.role);
  const [shops, setShops] = useState<string[] | null>(user.shops === null ? null : [...user.shops]);
  const [disabled, setDisabled] = useState(user.disabled);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.PATCH('/admin/v1/users/{id}', { params: { path: { id: String(user.id) } }, body: { role, shops, disabled } })),
    onSuccess: (updated) => {
      queryClient.setQueryData(userKeys.one(user.id), updated);
      void queryClient.invalidateQueries({ queryKey: userKeys.all, exact: true });
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
        <Stack maw={480} gap="sm">
          <Title order={2} size="h4">
            {t('people.user.edit')}
          </Title>
          {failure.form && (
            <Alert color="red" role="alert">
              {describePeopleFailure(save.error, t)}
            </Alert>
          )}
          {saved && !save.isPending && (
            <Alert color="green" role="status">
              {t('people.saved')}
            </Alert>
          )}
          <RoleShopsFields
            role={role}
            shops={shops}
            onRole={setRole}
            onShops={setShops}
            errors={{ role: fieldError('role'), shops: fieldError('shops') }}
          />
          <Checkbox
            label={t('people.user.disabled')}
            description={t('people.user.disabledHint')}
            checked={disabled}
            onChange={(e) => setDisabled(e.currentTarget.checked)}
            error={fieldError('disabled')}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('people.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ResendInvitation({ user }: { readonly user: User }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/users/{id}/invitation', { params: { path: { id: String(user.id) } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.one(user.id) }),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          {t('people.user.invitation')}
        </Title>
        <Text size="sm">{user.status === 'invited' ? t('people.user.resendHint') : t('people.user.resetHint')}</Text>
        {resend.isError && (
          <Alert color="red" role="alert">
            {describePeopleFailure(resend.error, t)}
          </Alert>
        )}
        {resend.data && <CopyOnce label={t('people.user.newLink')} value={resend.data.invite_url} testId="invite-url" />}
        <Button variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>
          {t('people.user.resend')}
        </Button>
      </Stack>
    </Paper>
  );
}

function RemoveUser({ user }: { readonly user: User }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/users/{id}', { params: { path: { id: String(user.id) } } })),
    onSuccess: () => {
      setConfirming(false);
      queryClient.removeQueries({ queryKey: userKeys.one(user.id) });
      void queryClient.invalidateQueries({ queryKey: userKeys.all, exact: true });
      void navigate('/users');
    },
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4">
          {t('people.user.remove')}
        </Title>
        <Text size="sm">{t('people.user.removeHint')}</Text>
        <Button
          color="red"
          variant="outline"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          {t('people.user.remove')}
        </Button>
      </Stack>
      <Confirm
        opened={confirming}
        title={t('people.user.removeTitle', { email: user.email })}
        text={t('people.user.removeText')}
        confirmLabel={t('people.user.removeConfirm')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
