import { Alert, Button, Group, Paper, Stack, Table, TextInput, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { ConfirmDelete, Empty, Failure, Loading } from '../ui/states';
import { customerKeys, useSegments } from './customers.queries';

/**
 * A shop's segments with their member counts (GET …/segments answers them all, with sizes
 * kept by the server). The API creates and deletes segments; it has no rename.
 */
export function SegmentsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const segments = useSegments(shopId);
  const count = new Intl.NumberFormat(language);
  return (
    <Page title={t('customers.segments.screenTitle')} hint={t('customers.segments.hint')}>
      <CreateSegment shopId={shopId} />
      {segments.isPending && <Loading />}
      {segments.isError && <Failure error={segments.error} onRetry={() => void segments.refetch()} />}
      {segments.data && segments.data.segments.length === 0 && <Empty>{t('customers.segments.empty')}</Empty>}
      {segments.data && segments.data.segments.length > 0 && (
        <Table striped aria-label={t('customers.segments.screenTitle')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('customers.segments.id')}</Table.Th>
              <Table.Th scope="col">{t('customers.segments.name')}</Table.Th>
              <Table.Th scope="col">{t('customers.segments.size')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('customers.segments.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {segments.data.segments.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{s.id}</Table.Td>
                <Table.Td>{s.name}</Table.Td>
                <Table.Td>{count.format(s.size)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" component={Link} to={`/shops/${shopId}/imports?segment=${s.id}`}>
                      {t('customers.segments.import')}
                    </Button>
                    <DeleteSegment shopId={shopId} id={s.id} name={s.name} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}

function CreateSegment({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/shops/{shop_id}/segments', { params: { path: { shop_id: shopId } }, body: { name } })),
    onSuccess: (answer) => {
      setCreated(t('customers.segments.created', { name: answer.name, id: answer.id }));
      setName('');
      void queryClient.invalidateQueries({ queryKey: customerKeys.segments(shopId) });
    },
  });
  const failure = formFailure(create.error, ['name'] as const, t);
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
              {created}
            </Alert>
          )}
          <Group align="flex-end">
            <TextInput
              label={t('customers.segments.newName')}
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={failure.field?.message}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={create.isPending}>
              {t('customers.segments.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function DeleteSegment({ shopId, id, name }: { readonly shopId: string; readonly id: number; readonly name: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/admin/v1/shops/{shop_id}/segments/{id}', { params: { path: { shop_id: shopId, id: String(id) } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.segments(shopId) }),
  });
  return (
    <ConfirmDelete
      label={t('customers.segments.delete')}
      ariaLabel={t('customers.segments.deleteLabel', { name })}
      confirm={t('customers.segments.deleteConfirm', { name })}
      mutation={remove}
    />
  );
}
