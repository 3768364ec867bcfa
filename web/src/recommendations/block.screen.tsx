import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
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
import { recommendationKeys, useBlock, type Block } from './recommendations.queries';

/**
 * One recommendation block: its figures over a period, the place of its preview, and its
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
          <PreviewSlot shopId={shopId} block={block.data} />
          <Section title={t('recommendations.block.settings')}>
            <BlockForm shopId={shopId} block={block.data} readOnly={!can.write} />
          </Section>
        </>
      )}
    </Page>
  );
}

/**
 * PREVIEW SLOT — the block's preview for a chosen product and customer belongs here
 * (issue 37 part 4). It waits for its admin endpoint; until then the slot says so and
 * shows nothing made up.
 */
export function PreviewSlot({ shopId, block }: { readonly shopId: string; readonly block: Block }) {
  const { t } = useI18n();
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label={t('recommendations.preview.title')}
      data-slot="recommendation-preview"
      data-shop={shopId}
      data-block={block.code}
    >
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('recommendations.preview.title')}
        </Title>
        <Text size="sm" c="gray.7">
          {t('recommendations.preview.pending')}
        </Text>
      </Stack>
    </Paper>
  );
}
