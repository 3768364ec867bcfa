import { Anchor, Badge, Button, Group, Table } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { LoadMore } from '../customers/load-more';
import { channelName } from '../dashboards/names';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { mailingChannels, templatesOfMailing } from './mailing-form';
import { mailingPath } from './mailing-path';
import { useMailings } from './mailings.queries';

/** The shop's transactional mailings by code, 50 a page (keyset on the server), each linking to its page. */
export function TransactionalListScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const can = usePermissions();
  const shop = useShop(shopId);
  const list = useMailings(shopId);
  const rows = list.data?.pages.flatMap((p) => p.mailings) ?? [];
  return (
    <Page title={t('transactional.title')} hint={t('transactional.hint')}>
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/transactional/new`}>
            {t('transactional.new')}
          </Button>
        </Group>
      )}
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && rows.length === 0 && <Empty>{t('transactional.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('transactional.code')}</Table.Th>
              <Table.Th scope="col">{t('transactional.name')}</Table.Th>
              <Table.Th scope="col">{t('transactional.channels')}</Table.Th>
              <Table.Th scope="col">{t('transactional.locales')}</Table.Th>
              <Table.Th scope="col">{t('transactional.updated')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => (
              <Table.Tr key={m.code}>
                <Table.Td>
                  <Anchor component={Link} to={mailingPath(shopId, m.code)}>
                    {m.code}
                  </Anchor>
                </Table.Td>
                <Table.Td>{m.name ?? '—'}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {mailingChannels(templatesOfMailing(m)).map((c) => (
                      <Badge key={c} variant="light">
                        {channelName(t, c)}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{Object.keys(m.locales ?? {}).join(', ') || '—'}</Table.Td>
                <Table.Td>{shop.data ? formatDateTime(m.updated_at, shop.data, language) : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <LoadMore query={list} label={t('transactional.more')} />
    </Page>
  );
}
