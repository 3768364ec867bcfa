import { Anchor, Badge, Button, Group, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
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
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const list = useMailings(shopId, q);
  const rows = list.data?.pages.flatMap((p) => p.mailings) ?? [];
  return (
    <Page title={t('transactional.title')} hint={t('transactional.hint')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim());
        }}
      >
        <Group align="flex-end">
          <TextInput label={t('transactional.search')} maxLength={255} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
          <Button type="submit" variant="default">
            {t('transactional.filter')}
          </Button>
          {can.write && (
            <Button component={Link} to={`/shops/${shopId}/transactional/new`} ml="auto">
              {t('transactional.new')}
            </Button>
          )}
        </Group>
      </form>
      {list.isPending && <Loading />}
      {list.isError && <Failure error={list.error} onRetry={() => void list.refetch()} />}
      {list.isSuccess && rows.length === 0 && <Empty>{q === '' ? t('transactional.empty') : t('transactional.noMatch', { q })}</Empty>}
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
