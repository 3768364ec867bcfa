import { Anchor, Button, Group, Table } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { LoadMore } from '../customers/load-more';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { useCampaigns } from './campaigns.queries';
import { StatusBadge } from './parts';

/** `/shops/:shopId/campaigns`: the shop's bulk mailings, newest first, a page at a time, with their status and counts. */
export function CampaignsListScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const can = usePermissions();
  const shop = useShop(shopId);
  const campaigns = useCampaigns(shopId);
  const count = new Intl.NumberFormat(language);
  const rows = campaigns.data?.pages.flatMap((p) => p.mailings) ?? [];
  return (
    <Page title={t('campaigns.list.title')} hint={t('campaigns.list.hint')}>
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/campaigns/new`}>
            {t('campaigns.list.new')}
          </Button>
        </Group>
      )}
      {(campaigns.isPending || shop.isPending) && <Loading />}
      {campaigns.isError && <Failure error={campaigns.error} onRetry={() => void campaigns.refetch()} />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {campaigns.data && rows.length === 0 && <Empty>{t('campaigns.list.empty')}</Empty>}
      {shop.data && rows.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('campaigns.list.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('campaigns.list.name')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.status')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.sendAt')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.recipients')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.sent')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.skipped')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.list.failed')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/campaigns/${c.id}`}>
                      {c.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={c.status} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(c.send_at, shop.data, language)}</Table.Td>
                  <Table.Td>{count.format(c.recipients)}</Table.Td>
                  <Table.Td>{count.format(c.sent)}</Table.Td>
                  <Table.Td>{count.format(c.skipped)}</Table.Td>
                  <Table.Td>{count.format(c.failed)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={campaigns} />
    </Page>
  );
}
