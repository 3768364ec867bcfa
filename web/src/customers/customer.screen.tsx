import { Anchor, Badge, Code, Group, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page, Section } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { EventTimeline, LoyaltyLedger, Messages, Orders } from './customer-history';
import { propertyText, useCustomer, useSegments, type Customer } from './customers.queries';

const IDENTIFIERS = ['email', 'phone', 'external_id', 'loyalty_id', 'telegram_id'] as const;
const FLAGS = ['email_bulk', 'email_chain', 'email_transactional', 'sms_bulk', 'sms_chain', 'sms_transactional'] as const;

/** One customer: GET …/customers/{profile_id} in one call, then the paged histories in tabs. */
export function CustomerScreen() {
  const { t } = useI18n();
  const { shopId = '', profileId = '' } = useParams();
  const shop = useShop(shopId);
  const customer = useCustomer(shopId, profileId);
  const title = customer.data ? t('customers.profile.title', { id: customer.data.id }) : t('customers.profile.titleLoading');
  return (
    <Page title={title}>
      <Anchor component={Link} to={`/shops/${shopId}/customers`} size="sm">
        {t('customers.profile.back')}
      </Anchor>
      {(customer.isPending || shop.isPending) && <Loading />}
      {customer.isError && <Failure error={customer.error} onRetry={() => void customer.refetch()} />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {customer.data && shop.data && <Profile shopId={shopId} shop={shop.data} customer={customer.data} />}
    </Page>
  );
}

function Profile({ shopId, shop, customer }: { readonly shopId: string; readonly shop: ShopLocale; readonly customer: Customer }) {
  const { t, language } = useI18n();
  const profileId = String(customer.id);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('customers.profile.since', {
          created: formatDateTime(customer.created_at, shop, language),
          updated: formatDateTime(customer.updated_at, shop, language),
        })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section gap="xs" title={t('customers.identities.title')}>
          <Table aria-label={t('customers.identities.title')}>
            <Table.Tbody>
              {IDENTIFIERS.map((name) => (
                <Table.Tr key={name}>
                  <Table.Th scope="row" w="40%">
                    {t(`customers.identifier.${name}`)}
                  </Table.Th>
                  <Table.Td data-testid={`identifier-${name}`}>{customer[name] ?? t('common.none')}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row">{t('customers.identities.devices')}</Table.Th>
                <Table.Td>
                  {customer.devices.length === 0
                    ? t('common.none')
                    : customer.devices.map((did) => (
                        <Code key={did} display="block">
                          {did}
                        </Code>
                      ))}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Merges shop={shop} customer={customer} />
        </Section>
        <Section gap="xs" title={t('customers.properties.title')}>
          <Properties properties={customer.properties} />
        </Section>
        <Section gap="xs" title={t('customers.subscriptions.title')}>
          <Table aria-label={t('customers.subscriptions.title')}>
            <Table.Tbody>
              {FLAGS.map((flag) => {
                const value = customer.subscriptions[flag];
                return (
                  <Table.Tr key={flag}>
                    <Table.Th scope="row">{t(`customers.flag.${flag}`)}</Table.Th>
                    <Table.Td>
                      {value === undefined ? t('customers.flag.unset') : value ? t('customers.flag.yes') : t('customers.flag.no')}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Title order={3} size="h5" mt="sm">
            {t('customers.pushTokens.title')}
          </Title>
          {customer.push_tokens.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('customers.pushTokens.empty')}
            </Text>
          ) : (
            <Stack gap={4}>
              {customer.push_tokens.map((token) => (
                <Group key={`${token.platform}:${token.token}`} gap="xs" wrap="nowrap">
                  <Badge variant="outline">{token.platform}</Badge>
                  <Code style={{ overflowWrap: 'anywhere' }}>{token.token}</Code>
                </Group>
              ))}
            </Stack>
          )}
        </Section>
        <Section gap="xs" title={t('customers.segments.title')}>
          <CustomerSegments shopId={shopId} ids={customer.segments} />
        </Section>
      </SimpleGrid>
      <Tabs defaultValue="events" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="events">{t('customers.tab.events')}</Tabs.Tab>
          <Tabs.Tab value="orders">{t('customers.tab.orders')}</Tabs.Tab>
          <Tabs.Tab value="loyalty">{t('customers.tab.loyalty')}</Tabs.Tab>
          <Tabs.Tab value="messages">{t('customers.tab.messages')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="events" pt="md">
          <EventTimeline shopId={shopId} profileId={profileId} shop={shop} />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <Orders shopId={shopId} profileId={profileId} shop={shop} />
        </Tabs.Panel>
        <Tabs.Panel value="loyalty" pt="md">
          <LoyaltyLedger shopId={shopId} loyalty={customer.loyalty} shop={shop} />
        </Tabs.Panel>
        <Tabs.Panel value="messages" pt="md">
          <Messages shopId={shopId} profileId={profileId} shop={shop} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** Property values are text from anyone who can call the public API: shown as text nodes, never as markup. */
function Properties({ properties }: { readonly properties: Customer['properties'] }) {
  const { t } = useI18n();
  const entries = Object.entries(properties);
  if (entries.length === 0) return <Empty>{t('customers.properties.empty')}</Empty>;
  return (
    <Table aria-label={t('customers.properties.title')} data-testid="properties">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('customers.properties.name')}</Table.Th>
          <Table.Th scope="col">{t('customers.properties.value')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Td>
              <Code>{name}</Code>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{propertyText(value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Merges({ shop, customer }: { readonly shop: ShopLocale; readonly customer: Customer }) {
  const { t, language } = useI18n();
  return (
    <>
      <Title order={3} size="h5" mt="sm">
        {t('customers.merges.title')}
      </Title>
      {customer.merges.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('customers.merges.empty')}
        </Text>
      ) : (
        <Stack gap={4}>
          {customer.merges.map((m) => (
            <Text size="sm" key={`${m.from_profile_id}-${m.into_profile_id}-${m.at}`}>
              {t('customers.merges.entry', {
                at: formatDateTime(m.at, shop, language),
                from: m.from_profile_id,
                into: m.into_profile_id,
                reason: m.reason,
                identifiers: propertyText(m.identifiers),
              })}
            </Text>
          ))}
        </Stack>
      )}
    </>
  );
}

function CustomerSegments({ shopId, ids }: { readonly shopId: string; readonly ids: readonly number[] }) {
  const { t } = useI18n();
  const segments = useSegments(shopId);
  if (ids.length === 0) return <Empty>{t('customers.segments.none')}</Empty>;
  const names = new Map((segments.data?.segments ?? []).map((s) => [s.id, s.name]));
  return (
    <Group gap="xs">
      {ids.map((id) => (
        <Badge key={id} variant="outline" component={Link} to={`/shops/${shopId}/segments`} style={{ cursor: 'pointer' }}>
          {names.get(id) ?? t('customers.segments.unnamed', { id })}
        </Badge>
      ))}
    </Group>
  );
}
