import { Anchor, Badge, Code, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import {
  formatUnits,
  propertyText,
  useCustomerEvents,
  useCustomerOrders,
  useLedger,
  useCustomerMessages,
  type Customer,
} from './customers.queries';
import { LoadMore } from './load-more';

interface HistoryProps {
  readonly shopId: string;
  readonly profileId: string;
  readonly shop: ShopLocale;
}

/** The events of all the customer's devices, newest first, a keyset page at a time. */
export function EventTimeline({ shopId, profileId, shop }: HistoryProps) {
  const { t, language } = useI18n();
  const events = useCustomerEvents(shopId, profileId);
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  if (events.isPending) return <Loading />;
  if (events.isError && !events.isFetchNextPageError) return <Failure error={events.error} onRetry={() => void events.refetch()} />;
  if (items.length === 0) return <Empty>{t('customers.events.empty')}</Empty>;
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label={t('customers.tab.events')} data-testid="timeline">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('customers.events.time')}</Table.Th>
              <Table.Th scope="col">{t('customers.events.event')}</Table.Th>
              <Table.Th scope="col">{t('customers.events.items')}</Table.Th>
              <Table.Th scope="col">{t('customers.events.details')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{formatDateTime(e.time, shop, language)}</Table.Td>
                <Table.Td>
                  <Code>{e.event}</Code>
                </Table.Td>
                <Table.Td>{e.items.length === 0 ? t('common.none') : e.items.map((item) => item.id).join(', ')}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {Object.keys(e.params).length === 0 ? t('common.none') : propertyText(e.params)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <LoadMore query={events} />
    </>
  );
}

export function Orders({ shopId, profileId, shop }: HistoryProps) {
  const { t, language } = useI18n();
  const orders = useCustomerOrders(shopId, profileId);
  const items = orders.data?.pages.flatMap((page) => page.items) ?? [];
  if (orders.isPending) return <Loading />;
  if (orders.isError && !orders.isFetchNextPageError) return <Failure error={orders.error} onRetry={() => void orders.refetch()} />;
  if (items.length === 0) return <Empty>{t('customers.orders.empty')}</Empty>;
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label={t('customers.tab.orders')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('customers.orders.time')}</Table.Th>
              <Table.Th scope="col">{t('customers.orders.orderId')}</Table.Th>
              <Table.Th scope="col">{t('customers.orders.items')}</Table.Th>
              <Table.Th scope="col">{t('customers.orders.total')}</Table.Th>
              <Table.Th scope="col">{t('customers.orders.promocode')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{formatDateTime(o.created_at, shop, language)}</Table.Td>
                <Table.Td>{o.order_id ?? t('common.none')}</Table.Td>
                <Table.Td>{o.items.reduce((n, item) => n + item.amount, 0)}</Table.Td>
                <Table.Td>{formatUnits(o.order_price ?? o.items_total, shop, language)}</Table.Td>
                <Table.Td>{o.promocode ?? t('common.none')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <LoadMore query={orders} />
    </>
  );
}

const STATUS_COLOR = { pending: 'yellow', confirmed: 'green', cancelled: 'gray' } as const;

/** The loyalty balance and its ledger (GET …/loyalty/members/{identifier}/transactions, paged by `before`). */
export function LoyaltyLedger({
  shopId,
  loyalty,
  shop,
}: {
  readonly shopId: string;
  readonly loyalty: Customer['loyalty'];
  readonly shop: ShopLocale;
}) {
  const { t } = useI18n();
  if (loyalty === null) return <Empty>{t('customers.loyalty.notMember')}</Empty>;
  return <Ledger shopId={shopId} loyalty={loyalty} shop={shop} />;
}

function Ledger({
  shopId,
  loyalty,
  shop,
}: {
  readonly shopId: string;
  readonly loyalty: NonNullable<Customer['loyalty']>;
  readonly shop: ShopLocale;
}) {
  const { t, language } = useI18n();
  const ledger = useLedger(shopId, loyalty.identifier);
  const items = ledger.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <Group gap="xl">
        <Text>{t('customers.loyalty.balance', { amount: formatUnits(loyalty.balance, shop, language) })}</Text>
        <Text>{t('customers.loyalty.pending', { amount: formatUnits(loyalty.pending, shop, language) })}</Text>
      </Group>
      {ledger.isPending && <Loading />}
      {ledger.isError && !ledger.isFetchNextPageError && <Failure error={ledger.error} onRetry={() => void ledger.refetch()} />}
      {ledger.isSuccess && items.length === 0 && <Empty>{t('customers.loyalty.empty')}</Empty>}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={t('customers.loyalty.ledger')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('customers.loyalty.time')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.kind')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.amount')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.status')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.orderId')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.reason')}</Table.Th>
                <Table.Th scope="col">{t('customers.loyalty.expires')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((tx) => (
                <Table.Tr key={tx.id}>
                  <Table.Td>{formatDateTime(tx.created_at, shop, language)}</Table.Td>
                  <Table.Td>{tx.kind}</Table.Td>
                  <Table.Td>{formatUnits(tx.amount, shop, language)}</Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={STATUS_COLOR[tx.status]}>
                      {t(`customers.loyalty.status.${tx.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{tx.order_id ?? t('common.none')}</Table.Td>
                  <Table.Td>{tx.reason ?? t('common.none')}</Table.Td>
                  <Table.Td>{tx.expires_at === null ? t('common.none') : formatDateTime(tx.expires_at, shop, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={ledger} />
    </>
  );
}

/** What became of a message, in the order a reader cares: a complaint or bounce first, then the furthest step reached. */
const OUTCOMES = ['complained', 'hard_bounced', 'soft_bounced', 'unsubscribed', 'purchased', 'clicked', 'opened'] as const;

/**
 * Messages the providers accepted for the customer, newest first, a keyset page at a time,
 * with what became of each. Test sends, and deliveries still queued or failed, are in the
 * shop's delivery log.
 */
export function Messages({ shopId, profileId, shop }: HistoryProps) {
  const { t, language } = useI18n();
  const messages = useCustomerMessages(shopId, profileId);
  const items = messages.data?.pages.flatMap((page) => page.items) ?? [];
  if (messages.isPending) return <Loading />;
  if (messages.isError && !messages.isFetchNextPageError) return <Failure error={messages.error} onRetry={() => void messages.refetch()} />;
  if (items.length === 0) return <Empty>{t('customers.messages.empty')}</Empty>;
  return (
    <>
      <Text size="sm" c="dimmed">
        {t('customers.messages.hint')}
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={t('customers.tab.messages')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('customers.messages.time')}</Table.Th>
              <Table.Th scope="col">{t('customers.messages.code')}</Table.Th>
              <Table.Th scope="col">{t('customers.messages.channel')}</Table.Th>
              <Table.Th scope="col">{t('customers.messages.subject')}</Table.Th>
              <Table.Th scope="col">{t('customers.messages.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((m) => {
              const reached = OUTCOMES.filter((o) => m.statistics[o]);
              return (
                <Table.Tr key={`${m.code}-${m.sent_at}`}>
                  <Table.Td>{formatDateTime(m.sent_at, shop, language)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/messages/${encodeURIComponent(m.code)}`}>
                      <Code>{m.code}</Code>
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{m.channel}</Table.Td>
                  <Table.Td>{m.subject ?? ''}</Table.Td>
                  <Table.Td>
                    {reached.length === 0 ? (
                      t('customers.messages.outcome.sent')
                    ) : (
                      <Group gap={4}>
                        {reached.map((o) => (
                          <Badge key={o} variant="outline" color={o.endsWith('bounced') || o === 'complained' ? 'red' : 'gray'}>
                            {t(`customers.messages.outcome.${o}`)}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <LoadMore query={messages} />
    </>
  );
}
