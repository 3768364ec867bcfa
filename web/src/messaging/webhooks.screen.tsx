import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { CopyOnce } from '../users/copy-once';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { messagingKeys, useEndpoints } from './messaging.queries';
import { EVENT_GROUPS, eventTypesOf } from './webhook-events';

/** The shop's outbound webhook endpoints; owners and admins add one, and see its signing secret once. */
export function WebhooksScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const can = usePermissions();
  const endpoints = useEndpoints(shopId);
  return (
    <Page title={t('messaging.webhooks.title')} hint={t('messaging.webhooks.hint')}>
      {can.manageChannels ? <NewEndpoint shopId={shopId} /> : <Alert color="gray">{t('messaging.webhooks.readOnly')}</Alert>}
      {endpoints.isPending && <Loading />}
      {endpoints.isError && <Failure error={endpoints.error} onRetry={() => void endpoints.refetch()} />}
      {endpoints.data && endpoints.data.endpoints.length === 0 && <Empty>{t('messaging.webhooks.empty')}</Empty>}
      {endpoints.data && endpoints.data.endpoints.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('messaging.webhooks.list')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('messaging.webhooks.url')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhooks.description')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhooks.events')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhooks.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {endpoints.data.endpoints.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Anchor component={Link} to={`/shops/${shopId}/webhooks/${encodeURIComponent(e.id)}`}>
                      {e.url}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{e.description}</Table.Td>
                  <Table.Td>{e.event_types.join(', ')}</Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={e.enabled ? 'green' : 'gray'}>
                      {e.enabled ? t('messaging.webhooks.enabled') : t('messaging.webhooks.disabled')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}

/** The event types to pick from, grouped; `value` and `onChange` hold the chosen ones. */
export function EventTypesPicker({
  value,
  onChange,
  error,
  disabled,
}: {
  readonly value: readonly string[];
  readonly onChange: (value: string[]) => void;
  readonly error: string | undefined;
  readonly disabled?: boolean;
}) {
  const { t } = useI18n();
  return (
    <Checkbox.Group label={t('messaging.webhooks.events')} value={[...value]} onChange={onChange} error={error}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
        {EVENT_GROUPS.map((group) => (
          <Stack key={group.title} gap={4}>
            <Text size="sm" fw={600}>
              {t(group.title)}
            </Text>
            {group.types.map((type) => (
              <Checkbox key={type} value={type} label={type} disabled={disabled} />
            ))}
          </Stack>
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

const FIELDS = ['url', 'event_types', 'description'] as const;

function NewEndpoint({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/webhooks/endpoints', {
          params: { path: { shop_id: shopId } },
          body: {
            url: url.trim(),
            event_types: eventTypesOf(types),
            ...(description.trim() ? { description: description.trim() } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setUrl('');
      setDescription('');
      setTypes([]);
      void client.invalidateQueries({ queryKey: messagingKeys.endpoints(shopId) });
    },
  });
  const failure = formFailure(create.error, FIELDS, t);
  const at = (f: (typeof FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="new-endpoint">
      <Title order={2} size="h4" id="new-endpoint">
        {t('messaging.webhooks.new')}
      </Title>
      {create.data && (
        <Stack gap="xs" mt="sm">
          <Alert color="green" role="status">
            {t('messaging.webhooks.created', { url: create.data.url })}
          </Alert>
          <CopyOnce label={t('messaging.webhooks.secret')} value={create.data.secret} testId="webhook-secret" />
          <Anchor component={Link} to={`/shops/${shopId}/webhooks/${encodeURIComponent(create.data.id)}`}>
            {t('messaging.webhooks.open')}
          </Anchor>
        </Stack>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" mt="sm" maw={720}>
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          <Group align="flex-start" grow>
            <TextInput
              label={t('messaging.webhooks.url')}
              placeholder="https://example.org/patron-hook"
              required
              maxLength={2048}
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={at('url')}
            />
            <TextInput
              label={t('messaging.webhooks.description')}
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={at('description')}
            />
          </Group>
          <EventTypesPicker value={types} onChange={setTypes} error={at('event_types')} />
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('messaging.webhooks.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
