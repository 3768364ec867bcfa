import { Anchor, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page, Section } from '../ui/page';
import { ConfirmDelete, Failure, Loading } from '../ui/states';
import { BlockForm } from './block-form';
import { BlockFigures } from './figures';
import { PreviewPanel } from './preview-panel';
import { recommendationKeys, useBlock } from './recommendations.queries';

/**
 * One recommendation block: its figures over a period, its preview for a product and a customer, and its
 * fields and rules to edit; deleted behind a confirmation.
 */
export function BlockScreen() {
  const { t } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const shop = useShop(shopId);
  const block = useBlock(shopId, code);
  const can = usePermissions();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/admin/v1/shops/{shop_id}/recommendation-blocks/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: recommendationKeys.block(shopId, code) });
      await queryClient.invalidateQueries({ queryKey: recommendationKeys.blocks(shopId), exact: true });
      void navigate(`/shops/${shopId}/recommendations`);
    },
  });
  const failed = block.error ?? shop.error;
  return (
    <Page
      title={
        block.data ? t('recommendations.block.title', { title: block.data.title, code }) : t('recommendations.block.titleCode', { code })
      }
    >
      <Group justify="space-between">
        <Anchor component={Link} to={`/shops/${shopId}/recommendations`}>
          {t('recommendations.back')}
        </Anchor>
        {can.write && block.data && (
          <ConfirmDelete
            label={t('recommendations.block.delete')}
            ariaLabel={t('recommendations.block.deleteLabel', { code })}
            confirm={t('recommendations.block.deleteConfirm', { code })}
            mutation={remove}
          />
        )}
      </Group>
      {(block.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([block.refetch(), shop.refetch()])} />}
      {block.data && shop.data && (
        <>
          <Section title={t('recommendations.figures.title')}>
            <BlockFigures shopId={shopId} code={code} shop={shop.data} />
          </Section>
          <Section title={t('recommendations.preview.title')}>
            <PreviewPanel shopId={shopId} code={code} />
          </Section>
          <Section title={t('recommendations.block.settings')}>
            <BlockForm shopId={shopId} block={block.data} readOnly={!can.write} />
          </Section>
        </>
      )}
    </Page>
  );
}
