import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Empty, Failure, Loading } from '../ui/states';
import { Confirm } from './confirm';
import { CopyOnce } from './copy-once';
import { formatAt } from './dates';
import { userKeys, type ApiToken } from './users.queries';

/**
 * A user's API tokens (docs/admin-users.md "API tokens"): create with a name (the `pat_…`
 * token is shown once), list, revoke behind a confirmation. Used for one's own account and,
 * by owners and admins, for another user's. The API answers them all at once.
 */
export function TokensPanel({ userId }: { readonly userId: number }) {
  const { t, language } = useI18n();
  const tokens = useQuery({
    queryKey: userKeys.tokens(userId),
    queryFn: () => unwrap(api.GET('/admin/v1/users/{id}/tokens', { params: { path: { id: String(userId) } } })),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('people.tokens.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('people.tokens.hint')}
        </Text>
        <CreateToken userId={userId} />
        {tokens.isPending && <Loading />}
        {tokens.isError && <Failure error={tokens.error} onRetry={() => void tokens.refetch()} />}
        {tokens.data && tokens.data.items.length === 0 && <Empty>{t('people.tokens.empty')}</Empty>}
        {tokens.data && tokens.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table striped aria-label={t('people.tokens.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('people.tokens.name')}</Table.Th>
                  <Table.Th scope="col">{t('people.tokens.created')}</Table.Th>
                  <Table.Th scope="col">{t('people.tokens.lastUsed')}</Table.Th>
                  <Table.Th scope="col">{t('people.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.items.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>{formatAt(token.created_at, null, language)}</Table.Td>
                    <Table.Td>{token.last_used_at ? formatAt(token.last_used_at, null, language) : t('people.never')}</Table.Td>
                    <Table.Td>
                      <RevokeToken userId={userId} token={token} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

function CreateToken({ userId }: { readonly userId: number }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/admin/v1/users/{id}/tokens', { params: { path: { id: String(userId) } }, body: { name: name.trim() } })),
    onSuccess: (answer) => {
      setCreated(answer.token);
      setName('');
      void queryClient.invalidateQueries({ queryKey: userKeys.tokens(userId) });
    },
  });
  const failure = formFailure(create.error, ['name'] as const, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate();
  };
  return (
    <Stack gap="xs">
      {created !== null && <CopyOnce label={t('people.tokens.createdTitle')} value={created} testId="new-token" />}
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          <Group align="flex-end">
            <TextInput
              label={t('people.tokens.newName')}
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={failure.field?.message}
            />
            <Button type="submit" loading={create.isPending} disabled={name.trim() === ''}>
              {t('people.tokens.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function RevokeToken({ userId, token }: { readonly userId: number; readonly token: ApiToken }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/admin/v1/users/{id}/tokens/{token_id}', { params: { path: { id: String(userId), token_id: String(token.id) } } }),
      ),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: userKeys.tokens(userId) });
    },
  });
  return (
    <>
      <Button
        size="xs"
        color="red"
        variant="default"
        aria-label={t('people.tokens.revokeLabel', { name: token.name })}
        onClick={() => {
          revoke.reset();
          setConfirming(true);
        }}
      >
        {t('people.tokens.revoke')}
      </Button>
      <Confirm
        opened={confirming}
        title={t('people.tokens.revokeTitle')}
        text={t('people.tokens.revokeText', { name: token.name })}
        confirmLabel={t('people.tokens.revoke')}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoke.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
