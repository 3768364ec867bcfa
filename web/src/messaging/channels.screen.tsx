import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { useChannels, useShopLocale } from './messaging.queries';

/** Every channel of the shop, configured or not, with its last day's health: one row each, linking to its page. */
export function ChannelsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const channels = useChannels(shopId);
  return (
    <Page title={t('messaging.channels.title')} hint={t('messaging.channels.hint')}>
      {channels.isPending && <Loading />}
      {channels.isError && <Failure error={channels.error} onRetry={() => void channels.refetch()} />}
      {channels.data && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('messaging.channels.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('messaging.channels.channel')}</Table.Th>
                <Table.Th scope="col">{t('messaging.channels.state')}</Table.Th>
                <Table.Th scope="col">{t('messaging.health.sent')}</Table.Th>
                <Table.Th scope="col">{t('messaging.health.failed')}</Table.Th>
                <Table.Th scope="col">{t('messaging.health.bounced')}</Table.Th>
                <Table.Th scope="col">{t('messaging.health.lastError')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {channels.data.channels.map((c) => (
                <Table.Tr key={c.channel}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/channels/${c.channel}`}>
                      {t(`messaging.channel.${c.channel}`)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {c.configured ? (
                      <Badge variant="dot" color="green">
                        {t('messaging.channels.configured', { vendors: c.vendors.map((v) => v.vendor).join(', ') })}
                      </Badge>
                    ) : (
                      <Badge variant="dot" color="gray">
                        {t('messaging.channels.notConfigured')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{c.health.sent}</Table.Td>
                  <Table.Td>{c.health.failed}</Table.Td>
                  <Table.Td>{c.health.bounced}</Table.Td>
                  <Table.Td>
                    {c.health.last_error ? (
                      <Text size="sm" lineClamp={2}>
                        {shop ? formatDateTime(c.health.last_error.at, shop, language) : c.health.last_error.at}:{' '}
                        {c.health.last_error.message}
                      </Text>
                    ) : (
                      t('messaging.health.noError')
                    )}
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
