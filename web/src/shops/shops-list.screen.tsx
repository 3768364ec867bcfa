import { Anchor, Badge, Table } from '@mantine/core';
import { Link } from 'react-router';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { shopStatus, todayIn, useShops } from './shop.queries';

const STATUS_COLOR = { active: 'green', inactive: 'gray', restricted: 'orange', expired: 'red' } as const;

/** Every shop the user may open. GET /admin/v1/shops answers them all at once (no paging in the API). */
export function ShopsListScreen() {
  const { t } = useI18n();
  const shops = useShops();
  return (
    <Page title={t('shops.title')}>
      {shops.isPending && <Loading />}
      {shops.isError && <Failure error={shops.error} onRetry={() => void shops.refetch()} />}
      {shops.data && shops.data.shops.length === 0 && <Empty>{t('shops.empty')}</Empty>}
      {shops.data && shops.data.shops.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('shops.column.name')}</Table.Th>
                <Table.Th scope="col">{t('shops.column.id')}</Table.Th>
                <Table.Th scope="col">{t('shops.column.currency')}</Table.Th>
                <Table.Th scope="col">{t('shops.column.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shops.data.shops.map((shop) => {
                const status = shopStatus(shop, todayIn(shop.timezone));
                return (
                  <Table.Tr key={shop.shop_id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/shops/${shop.shop_id}/settings`}>
                        {shop.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ff="monospace">{shop.shop_id}</Table.Td>
                    <Table.Td>{shop.currency}</Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[status]} variant="dot">
                        {t(`shops.status.${status}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}
