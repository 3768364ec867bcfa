import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { loyaltyKeys, useShopLocale } from './loyalty.queries';
import { PromoCodes } from './promo-codes';
import { PromotionForm } from './promotion-form';

export function NewPromotionScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  return (
    <Page title={t('loyalty.promo.newTitle')}>
      <BackToPromotions shopId={shopId} />
      {shop ? <PromotionForm shopId={shopId} shop={shop} /> : <Loading />}
    </Page>
  );
}

/** A promotion: its fields (edited whole), then its promo codes. */
export function PromotionScreen() {
  const { t } = useI18n();
  const { shopId = '', id = '' } = useParams();
  const shop = useShopLocale(shopId);
  const promotion = useQuery({
    queryKey: loyaltyKeys.promotion(shopId, id),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/promotions/{id}', { params: { path: { shop_id: shopId, id } } })),
  });
  return (
    <Page title={promotion.data ? t('loyalty.promo.oneTitle', { name: promotion.data.name }) : t('loyalty.promo.title')}>
      <BackToPromotions shopId={shopId} />
      {(promotion.isPending || !shop) && !promotion.isError && <Loading />}
      {promotion.isError && <Failure error={promotion.error} onRetry={() => void promotion.refetch()} />}
      {promotion.data && shop && <PromotionForm key={promotion.data.id} shopId={shopId} shop={shop} promotion={promotion.data} />}
      {promotion.data && shop && <PromoCodes shopId={shopId} shop={shop} promotion={promotion.data} />}
    </Page>
  );
}

function BackToPromotions({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  return (
    <Anchor component={Link} to={`/shops/${shopId}/promotions`}>
      {t('loyalty.promo.back')}
    </Anchor>
  );
}
