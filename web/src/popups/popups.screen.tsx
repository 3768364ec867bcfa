import { Anchor, Badge, Button, Group, Table } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { PopupForm } from './popup-form';
import { usePopups } from './popups.queries';

/** The shop's popups with their figures (GET …/popups: every popup at once, newest first; the API does not page them). */
export function PopupsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const popups = usePopups(shopId);
  const can = usePermissions();
  const failed = popups.error ?? shop.error;
  return (
    <Page title={t('popups.list.title')} hint={t('popups.list.hint')}>
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/popups/new`}>
            {t('popups.list.new')}
          </Button>
        </Group>
      )}
      {(popups.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([popups.refetch(), shop.refetch()])} />}
      {popups.data && popups.data.popups.length === 0 && <Empty>{t('popups.list.empty')}</Empty>}
      {popups.data && shop.data && popups.data.popups.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={t('popups.list.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('popups.list.name')}</Table.Th>
                <Table.Th scope="col">{t('popups.list.status')}</Table.Th>
                <Table.Th scope="col">{t('popups.list.position')}</Table.Th>
                <Table.Th scope="col">{t('popups.figures.shown')}</Table.Th>
                <Table.Th scope="col">{t('popups.figures.clicks')}</Table.Th>
                <Table.Th scope="col">{t('popups.list.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {popups.data.popups.map((popup) => (
                <Table.Tr key={popup.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/popups/${popup.id}`}>
                      {popup.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={popup.status === 'active' ? 'green' : 'gray'}>{t(`popups.status.${popup.status}`)}</Badge>
                  </Table.Td>
                  <Table.Td>{t(`popups.position.${popup.position}`)}</Table.Td>
                  <Table.Td>{popup.shown}</Table.Td>
                  <Table.Td>{popup.clicks}</Table.Td>
                  <Table.Td>{formatDateTime(popup.updated_at, shop.data, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}

/** A new popup: its content, buttons and targeting; saved, it opens its page. */
export function NewPopupScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const navigate = useNavigate();
  return (
    <Page title={t('popups.new.title')}>
      <Anchor component={Link} to={`/shops/${shopId}/popups`}>
        {t('popups.back')}
      </Anchor>
      {shop.isPending && <Loading />}
      {shop.error && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && (
        <PopupForm
          shopId={shopId}
          timezone={shop.data.timezone}
          readOnly={false}
          onSaved={(popup) => void navigate(`/shops/${shopId}/popups/${popup.id}`)}
        />
      )}
    </Page>
  );
}
