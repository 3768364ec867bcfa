import { Anchor, Badge, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { useMessage, useShopLocale, type MessageDetail } from './messaging.queries';
import { OUTCOME_FIELDS, useChannelLabel } from './parts';

type Delivery = MessageDetail['deliveries'][number];

/** One message of the delivery log: what it is, and per delivery its rendered content, its tries and what became of it. */
export function MessageScreen() {
  const { t, language } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const shop = useShopLocale(shopId);
  const message = useMessage(shopId, code);
  const at = (iso: string) => (shop ? formatDateTime(iso, shop, language) : iso);
  const data = message.data;
  return (
    <Page title={t('messaging.message.title', { code })}>
      <Anchor component={Link} to={`/shops/${shopId}/messages`} size="sm">
        {t('messaging.message.back')}
      </Anchor>
      {message.isPending && <Loading />}
      {message.isError && <Failure error={message.error} onRetry={() => void message.refetch()} />}
      {data && (
        <>
          <Paper withBorder p="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Fact label={t('messaging.message.type')} value={data.test ? t('messaging.message.testSend') : data.type} />
              <Fact label={t('messaging.message.mailing')} value={data.mailing_code || '—'} />
              <Fact label={t('messaging.message.created')} value={at(data.created_at)} />
              <div>
                <Text size="xs" c="dimmed">
                  {t('messaging.message.customer')}
                </Text>
                {data.profile_id > 0 ? (
                  <Anchor component={Link} to={`/shops/${shopId}/customers/${data.profile_id}`}>
                    {t('messaging.message.profile', { id: data.profile_id })}
                  </Anchor>
                ) : (
                  <Text>—</Text>
                )}
              </div>
            </SimpleGrid>
          </Paper>
          {data.deliveries.length === 0 && <Empty>{t('messaging.message.noDeliveries')}</Empty>}
          {data.deliveries.map((d) => (
            <DeliveryPanel key={d.seq} delivery={d} shop={shop} many={data.deliveries.length > 1} />
          ))}
        </>
      )}
    </Page>
  );
}

function Fact({ label, value }: { readonly label: string; readonly value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text style={{ overflowWrap: 'anywhere' }}>{value}</Text>
    </div>
  );
}

function DeliveryPanel({
  delivery: d,
  shop,
  many,
}: {
  readonly delivery: Delivery;
  readonly shop: ShopLocale | undefined;
  readonly many: boolean;
}) {
  const { t, language } = useI18n();
  const channelLabel = useChannelLabel();
  const at = (iso: string) => (shop ? formatDateTime(iso, shop, language) : iso);
  const headingId = `delivery-${d.seq}`;
  const reached = OUTCOME_FIELDS.filter(([field]) => d.outcomes[field] !== null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {many ? t('messaging.message.deliveryN', { n: d.seq, channel: channelLabel(d.channel) }) : channelLabel(d.channel)}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fact label={t('messaging.message.to')} value={d.to} />
          <Fact label={t('messaging.message.status')} value={t(`messaging.status.${d.status}`)} />
          <Fact label={t('messaging.message.vendor')} value={d.vendor ?? '—'} />
          <Fact label={t('messaging.message.sentAt')} value={d.sent_at ? at(d.sent_at) : '—'} />
          <Fact label={t('messaging.message.attempts')} value={String(d.attempts)} />
          {d.error && <Fact label={t('messaging.message.error')} value={d.error} />}
        </SimpleGrid>

        <Title order={3} size="h5">
          {t('messaging.message.outcomes')}
        </Title>
        {reached.length === 0 ? (
          <Text size="sm">{t('messaging.message.noOutcome')}</Text>
        ) : (
          <Table aria-label={t('messaging.message.outcomes')} maw={480}>
            <Table.Tbody>
              {reached.map(([field, name]) => (
                <Table.Tr key={field}>
                  <Table.Th scope="row">{t(`messaging.outcome.${name}`)}</Table.Th>
                  <Table.Td>{at(d.outcomes[field] ?? '')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}

        <Title order={3} size="h5">
          {t('messaging.message.content')}
        </Title>
        <Content delivery={d} />

        <Title order={3} size="h5">
          {t('messaging.message.tries')}
        </Title>
        {d.tries.length === 0 ? (
          <Text size="sm">{t('messaging.message.noTries')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label={t('messaging.message.tries')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('messaging.message.try')}</Table.Th>
                  <Table.Th scope="col">{t('messaging.message.at')}</Table.Th>
                  <Table.Th scope="col">{t('messaging.message.vendor')}</Table.Th>
                  <Table.Th scope="col">{t('messaging.message.tryOutcome')}</Table.Th>
                  <Table.Th scope="col">{t('messaging.message.answer')}</Table.Th>
                  <Table.Th scope="col">{t('messaging.message.duration')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.tries.map((tr) => (
                  <Table.Tr key={tr.attempt}>
                    <Table.Td>{tr.attempt}</Table.Td>
                    <Table.Td>{at(tr.at)}</Table.Td>
                    <Table.Td>{tr.vendor ?? '—'}</Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={tr.outcome === 'sent' ? 'green' : tr.outcome === 'temporary' ? 'yellow' : 'red'}>
                        {t(`messaging.try.${tr.outcome}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{tr.answer ?? ''}</Table.Td>
                    <Table.Td>{t('messaging.ms', { ms: tr.duration_ms })}</Table.Td>
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

/**
 * What was sent. An email's HTML is shown only inside a sandboxed frame with no rights at all
 * (`sandbox=""`: no script, no same origin, no forms, no navigation), from `srcdoc`; every
 * other part is text.
 */
function Content({ delivery: d }: { readonly delivery: Delivery }) {
  const { t } = useI18n();
  const c = d.content;
  if (c.subject === null && c.text === null && c.html === null && c.url === null) {
    return <Text size="sm">{t('messaging.message.noContent')}</Text>;
  }
  return (
    <Stack gap="xs">
      {c.subject !== null && (
        <Group gap="xs" align="baseline">
          <Text size="sm" c="dimmed">
            {t('messaging.message.subject')}
          </Text>
          <Text fw={600}>{c.subject}</Text>
        </Group>
      )}
      {c.html !== null && (
        <iframe
          title={t('messaging.message.htmlFrame')}
          sandbox=""
          srcDoc={c.html}
          referrerPolicy="no-referrer"
          style={{ width: '100%', height: 420, border: '1px solid var(--mantine-color-gray-4)', background: 'white' }}
        />
      )}
      {c.text !== null && (
        <div>
          <Text size="sm" c="dimmed">
            {c.html !== null ? t('messaging.message.textPart') : t('messaging.message.text')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {c.text}
          </Code>
        </div>
      )}
      {c.url !== null && <Fact label={t('messaging.message.url')} value={c.url} />}
      {c.icon !== null && <Fact label={t('messaging.message.icon')} value={c.icon} />}
      {c.picture !== null && <Fact label={t('messaging.message.picture')} value={c.picture} />}
    </Stack>
  );
}
