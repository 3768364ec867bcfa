import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { usePermissions } from '../auth/permissions';
import { LoadMore } from '../customers/load-more';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { ConfirmDelete, Empty, Failure, InlineFailure, Loading } from '../ui/states';
import { messagingKeys, useDeliveries, useEndpoint, useShopLocale, type Endpoint, type WebhookDelivery } from './messaging.queries';
import { eventTypesOf } from './webhook-events';
import { EventTypesPicker } from './webhooks.screen';

/** One webhook endpoint: its settings (owners and admins change or delete it) and its recent deliveries with "send again". */
export function WebhookScreen() {
  const { t } = useI18n();
  const { shopId = '', endpointId = '' } = useParams();
  const shop = useShopLocale(shopId);
  const endpoint = useEndpoint(shopId, endpointId);
  const client = useQueryClient();
  // Held here, not in the form: a save starts the form again from the saved endpoint, and its outcome must outlive that.
  const save = useMutation({
    mutationFn: (body: EndpointPatch) =>
      unwrap(
        api.PATCH('/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}', {
          params: { path: { shop_id: shopId, endpoint_id: endpointId } },
          body,
        }),
      ),
    onSuccess: (saved) => {
      client.setQueryData(messagingKeys.endpoint(shopId, endpointId), saved);
      void client.invalidateQueries({ queryKey: messagingKeys.endpoints(shopId), exact: true });
    },
  });
  return (
    <Page title={t('messaging.webhook.title')}>
      <Anchor component={Link} to={`/shops/${shopId}/webhooks`} size="sm">
        {t('messaging.webhook.back')}
      </Anchor>
      {endpoint.isPending && <Loading />}
      {endpoint.isError && <Failure error={endpoint.error} onRetry={() => void endpoint.refetch()} />}
      {endpoint.data && (
        <>
          <EndpointForm key={endpoint.data.updated_at} shopId={shopId} endpoint={endpoint.data} save={save} />
          <Deliveries shopId={shopId} endpointId={endpointId} shop={shop} />
        </>
      )}
    </Page>
  );
}

const FIELDS = ['url', 'event_types', 'description', 'enabled'] as const;

type EndpointPatch = NonNullable<
  paths['/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}']['patch']['requestBody']
>['content']['application/json'];

function EndpointForm({
  shopId,
  endpoint,
  save,
}: {
  readonly shopId: string;
  readonly endpoint: Endpoint;
  readonly save: UseMutationResult<Endpoint, Error, EndpointPatch>;
}) {
  const { t } = useI18n();
  const can = usePermissions();
  const readOnly = !can.manageChannels;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description);
  const [types, setTypes] = useState<string[]>(endpoint.event_types);
  const [enabled, setEnabled] = useState(endpoint.enabled);
  const path = { shop_id: shopId, endpoint_id: endpoint.id };
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}', { params: { path } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: messagingKeys.endpoints(shopId), exact: true });
      void navigate(`/shops/${shopId}/webhooks`);
    },
  });
  const failure = formFailure(save.error, FIELDS, t);
  const at = (f: (typeof FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ url: url.trim(), description: description.trim(), event_types: eventTypesOf(types), enabled });
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="endpoint-settings">
      <Title order={2} size="h4" id="endpoint-settings">
        {t('messaging.webhook.settings')}
      </Title>
      {readOnly && (
        <Alert color="gray" mt="sm">
          {t('messaging.webhooks.readOnly')}
        </Alert>
      )}
      {!endpoint.enabled && endpoint.disabled_reason && (
        <Alert color="yellow" mt="sm">
          {t('messaging.webhook.disabledBecause', { reason: endpoint.disabled_reason })}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" mt="sm" maw={720}>
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          {save.isSuccess && (
            <Alert color="green" role="status">
              {t('messaging.settings.saved')}
            </Alert>
          )}
          <TextInput label={t('messaging.webhook.id')} value={endpoint.id} readOnly />
          <TextInput
            label={t('messaging.webhooks.url')}
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={at('url')}
            readOnly={readOnly}
          />
          <TextInput
            label={t('messaging.webhooks.description')}
            maxLength={200}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={at('description')}
            readOnly={readOnly}
          />
          <EventTypesPicker value={types} onChange={setTypes} error={at('event_types')} disabled={readOnly} />
          <Checkbox
            label={t('messaging.webhook.enabled')}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
            disabled={readOnly}
          />
          {!readOnly && (
            <Group justify="space-between">
              <Button type="submit" loading={save.isPending}>
                {t('messaging.settings.save')}
              </Button>
              <Group gap="xs">
                <ConfirmDelete
                  label={t('messaging.webhook.delete')}
                  ariaLabel={t('messaging.webhook.delete')}
                  confirm={t('messaging.webhook.deleteConfirm', { url: endpoint.url })}
                  mutation={{ ...remove, mutate: () => remove.mutate() }}
                />
              </Group>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function Deliveries({
  shopId,
  endpointId,
  shop,
}: {
  readonly shopId: string;
  readonly endpointId: string;
  readonly shop: ShopLocale | undefined;
}) {
  const { t, language } = useI18n();
  const deliveries = useDeliveries(shopId, endpointId);
  const rows = deliveries.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const at = (iso: string | null) => (iso === null ? '—' : shop ? formatDateTime(iso, shop, language) : iso);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="endpoint-deliveries">
      <Group justify="space-between">
        <Title order={2} size="h4" id="endpoint-deliveries">
          {t('messaging.webhook.deliveries')}
        </Title>
        <Button size="xs" variant="default" loading={deliveries.isRefetching} onClick={() => void deliveries.refetch()}>
          {t('messaging.webhook.refresh')}
        </Button>
      </Group>
      {deliveries.isPending && <Loading />}
      {deliveries.isError && !deliveries.isFetchNextPageError && (
        <Failure error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      )}
      {deliveries.data && rows.length === 0 && <Empty>{t('messaging.webhook.noDeliveries')}</Empty>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={860}>
          <Table striped aria-label={t('messaging.webhook.deliveries')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('messaging.webhook.created')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.event')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.status')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.attempts')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.answer')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.duration')}</Table.Th>
                <Table.Th scope="col">{t('messaging.webhook.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <DeliveryRow key={d.id} shopId={shopId} endpointId={endpointId} delivery={d} at={at} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={deliveries} label={t('messaging.loadMore')} />
    </Paper>
  );
}

function DeliveryRow({
  shopId,
  endpointId,
  delivery: d,
  at,
}: {
  readonly shopId: string;
  readonly endpointId: string;
  readonly delivery: WebhookDelivery;
  readonly at: (iso: string | null) => string;
}) {
  const { t } = useI18n();
  const can = usePermissions();
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/webhooks/endpoints/{endpoint_id}/deliveries/{delivery_id}/retry', {
          params: { path: { shop_id: shopId, endpoint_id: endpointId, delivery_id: d.id } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: messagingKeys.deliveries(shopId, endpointId) }),
  });
  const answer = [d.last_status_code === null ? '' : t('messaging.webhook.httpStatus', { status: d.last_status_code }), d.last_error ?? '']
    .filter((s) => s !== '')
    .join(' · ');
  return (
    <Table.Tr>
      <Table.Td>{at(d.created_at)}</Table.Td>
      <Table.Td>
        {d.event_type}
        <br />
        <small>{d.id}</small>
      </Table.Td>
      <Table.Td>
        <Badge variant="dot" color={d.status === 'succeeded' ? 'green' : d.status === 'failed' ? 'red' : 'yellow'}>
          {t(`messaging.webhook.status.${d.status}`)}
        </Badge>
        {d.status === 'pending' && d.next_attempt_at && <div>{t('messaging.webhook.nextAt', { at: at(d.next_attempt_at) })}</div>}
      </Table.Td>
      <Table.Td>{d.attempts}</Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{answer || '—'}</Table.Td>
      <Table.Td>{d.last_duration_ms === null ? '—' : t('messaging.ms', { ms: d.last_duration_ms })}</Table.Td>
      <Table.Td>
        {can.write && d.status !== 'pending' && (
          <Button
            size="xs"
            variant="default"
            aria-label={t('messaging.webhook.retryLabel', { id: d.id })}
            loading={retry.isPending}
            onClick={() => retry.mutate()}
          >
            {t('messaging.webhook.retry')}
          </Button>
        )}
        {retry.isSuccess && <span role="status">{t('messaging.webhook.queued')}</span>}
        {retry.isError && <InlineFailure error={retry.error} />}
      </Table.Td>
    </Table.Tr>
  );
}
