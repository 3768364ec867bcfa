import { Alert, Button, Code, Group, Paper, Stack, Table, TextInput, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { ConfirmDelete, Empty, Failure, Loading } from '../ui/states';

const eventCodeKeys = (shopId: string) => ['shops', shopId, 'custom-events'] as const;

/**
 * A shop's custom event codes (admin-api.md, Custom event codes): POST /push/custom accepts
 * an event only once its code exists. The API lists every code of the shop at once.
 */
export function EventCodesScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const can = usePermissions();
  const codes = useQuery({
    queryKey: eventCodeKeys(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/custom-events', { params: { path: { shop_id: shopId } } })),
  });
  return (
    <Page title={t('events.title')} hint={t('events.hint')}>
      {can.write ? <CreateEventCode shopId={shopId} /> : <Alert color="gray">{t('people.readOnlyRole')}</Alert>}
      {codes.isPending && <Loading />}
      {codes.isError && <Failure error={codes.error} onRetry={() => void codes.refetch()} />}
      {codes.data && codes.data.custom_events.length === 0 && <Empty>{t('events.empty')}</Empty>}
      {codes.data && codes.data.custom_events.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('events.code')}</Table.Th>
              <Table.Th scope="col">{t('events.name')}</Table.Th>
              {can.write && (
                <Table.Th scope="col">
                  <VisuallyHidden>{t('events.delete')}</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {codes.data.custom_events.map((item) => (
              <Table.Tr key={item.code}>
                <Table.Td>
                  <Code>{item.code}</Code>
                </Table.Td>
                <Table.Td>{item.name ?? t('common.none')}</Table.Td>
                {can.write && (
                  <Table.Td>
                    <DeleteEventCode shopId={shopId} code={item.code} />
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}

function CreateEventCode({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/custom-events', {
          params: { path: { shop_id: shopId } },
          body: name.trim() === '' ? { code } : { code, name: name.trim() },
        }),
      ),
    onSuccess: (answer) => {
      setCreated(answer.code);
      setCode('');
      setName('');
      void queryClient.invalidateQueries({ queryKey: eventCodeKeys(shopId) });
    },
  });
  const conflict = create.error instanceof ApiError && create.error.status === 409;
  const failure = conflict ? {} : formFailure(create.error, ['code', 'name'] as const, t);
  const codeError = conflict ? t('events.exists') : failure.field?.name === 'code' ? failure.field.message : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate();
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          {created && (
            <Alert color="green" role="status">
              {t('events.created', { code: created })}
            </Alert>
          )}
          <Group align="flex-start" grow>
            <TextInput
              label={t('events.code')}
              description={t('events.codeHint')}
              required
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={codeError}
            />
            <TextInput
              label={t('events.name')}
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={failure.field?.name === 'name' ? failure.field.message : undefined}
            />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('events.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function DeleteEventCode({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/custom-events/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventCodeKeys(shopId) }),
  });
  return (
    <Group gap="xs" justify="flex-end">
      <ConfirmDelete
        label={t('events.delete')}
        ariaLabel={t('events.deleteLabel', { code })}
        confirm={t('events.deleteConfirm', { code })}
        mutation={remove}
      />
    </Group>
  );
}
