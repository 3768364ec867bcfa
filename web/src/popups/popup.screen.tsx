import { Anchor, Group, SimpleGrid } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page, Section, StatCard } from '../ui/page';
import { ConfirmDelete, Failure, Loading } from '../ui/states';
import { PopupForm } from './popup-form';
import { popupKeys, usePopup } from './popups.queries';

/** One popup: its figures (devices shown it, devices that clicked), then its content, preview and targeting; deleted behind a confirmation. */
export function PopupScreen() {
  const { t } = useI18n();
  const { shopId = '', id = '' } = useParams();
  const shop = useShop(shopId);
  const popup = usePopup(shopId, id);
  const can = usePermissions();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/popups/{id}', { params: { path: { shop_id: shopId, id } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: popupKeys.one(shopId, id) });
      await queryClient.invalidateQueries({ queryKey: popupKeys.list(shopId), exact: true });
      void navigate(`/shops/${shopId}/popups`);
    },
  });
  const failed = popup.error ?? shop.error;
  const name = popup.data?.name ?? '';
  return (
    <Page title={popup.data ? t('popups.popup.title', { name }) : t('popups.popup.titleId', { id })}>
      <Group justify="space-between">
        <Anchor component={Link} to={`/shops/${shopId}/popups`}>
          {t('popups.back')}
        </Anchor>
        {can.write && popup.data && (
          <ConfirmDelete
            label={t('popups.popup.delete')}
            ariaLabel={t('popups.popup.deleteLabel', { name })}
            confirm={t('popups.popup.deleteConfirm', { name })}
            mutation={remove}
          />
        )}
      </Group>
      {(popup.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([popup.refetch(), shop.refetch()])} />}
      {popup.data && shop.data && (
        <>
          <Section title={t('popups.figures.title')}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} component="ul" p={0} m={0} aria-label={t('popups.figures.title')}>
              <StatCard
                component="li"
                label={t('popups.figures.shown')}
                value={String(popup.data.shown)}
                note={t('popups.figures.shownNote')}
              />
              <StatCard
                component="li"
                label={t('popups.figures.clicks')}
                value={String(popup.data.clicks)}
                note={t('popups.figures.clicksNote')}
              />
            </SimpleGrid>
          </Section>
          <Section title={t('popups.popup.settings')}>
            <PopupForm shopId={shopId} timezone={shop.data.timezone} popup={popup.data} readOnly={!can.write} />
          </Section>
        </>
      )}
    </Page>
  );
}
