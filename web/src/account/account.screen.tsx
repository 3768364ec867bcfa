import { Alert, Button, Group, Paper, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useSession, type SessionUser } from '../auth/session';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { formatAt } from '../users/dates';
import { ShopNames } from '../users/shop-names';
import { TokensPanel } from '../users/tokens-panel';
import { OwnSessions } from './own-sessions';

/** The signed-in person's own account: who they are, their password, API tokens and sessions. */
export function AccountScreen() {
  const { t } = useI18n();
  const session = useSession();
  const user = session.data?.user;
  return (
    <Page title={t('people.account.title')}>
      {session.isPending && <Loading />}
      {session.isError && <Failure error={session.error} onRetry={() => void session.refetch()} />}
      {user && (
        <>
          <Profile user={user} />
          <ChangePassword />
          <TokensPanel userId={user.id} />
          <OwnSessions />
        </>
      )}
    </Page>
  );
}

function Profile({ user }: { readonly user: SessionUser }) {
  const { t, language } = useI18n();
  return (
    <Paper withBorder p="md">
      <Table variant="vertical" layout="fixed" maw={640}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={200}>{t('people.email')}</Table.Th>
            <Table.Td>{user.email}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('people.role')}</Table.Th>
            <Table.Td>{t(`role.${user.role}`)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('people.shops')}</Table.Th>
            <Table.Td>
              <ShopNames shops={user.shops} />
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('people.lastSignIn')}</Table.Th>
            <Table.Td>{user.last_sign_in_at ? formatAt(user.last_sign_in_at, null, language) : t('people.never')}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

const PASSWORD_FIELDS = ['current_password', 'new_password'] as const;

function ChangePassword() {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/session/password', { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setAgain('');
    },
  });
  const failure = formFailure(change.error, PASSWORD_FIELDS, t);
  // The server's sentence for a wrong current password is English; this one is the reader's language.
  const fieldError = (field: (typeof PASSWORD_FIELDS)[number]) => {
    if (failure.field?.name !== field) return undefined;
    return field === 'current_password' ? t('people.password.wrongCurrent') : failure.field.message;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    if (next !== again) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    change.mutate();
  };
  const toggle = { 'aria-label': t('auth.showPassword') };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={480} gap="sm">
          <Title order={2} size="h4">
            {t('people.password.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('people.password.hint')}
          </Text>
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          {change.isSuccess && (
            <Alert color="green" role="status">
              {t('people.password.changed')}
            </Alert>
          )}
          <PasswordInput
            label={t('people.password.current')}
            autoComplete="current-password"
            required
            maxLength={200}
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={fieldError('current_password')}
            visibilityToggleButtonProps={toggle}
          />
          <PasswordInput
            label={t('people.password.new')}
            description={t('people.password.newHint')}
            autoComplete="new-password"
            required
            maxLength={200}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={fieldError('new_password')}
            visibilityToggleButtonProps={toggle}
          />
          <PasswordInput
            label={t('people.password.again')}
            autoComplete="new-password"
            required
            maxLength={200}
            value={again}
            onChange={(e) => setAgain(e.currentTarget.value)}
            error={mismatch ? t('auth.invite.mismatch') : undefined}
            visibilityToggleButtonProps={toggle}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t('people.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
