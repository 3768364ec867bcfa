import { List, Text } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../api/client';
import type { Translate } from '../i18n/i18n';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { catalogKeys, useKeysetList, type Product } from './catalog.queries';
import { ListStates } from './list-parts';
import { ProductDrawer } from './product-drawer';
import { ProductTable } from './products.screen';

/**
 * Why a product is hidden, from what the API gives: the storefront shows a product with a
 * price, a name, a link and a category the feed defines (docs/catalog-import.md, widgetable).
 * The picture's download error is listed too: it is what the shop can most often fix.
 */
export function hiddenReasons(product: Product, t: Translate): string[] {
  const reasons: string[] = [];
  if (product.price === null) reasons.push(t('catalog.hidden.noPrice'));
  if (product.name === null) reasons.push(t('catalog.hidden.noName'));
  if (product.url === null) reasons.push(t('catalog.hidden.noUrl'));
  if (product.category_ids.length === 0) reasons.push(t('catalog.hidden.noCategory'));
  if (reasons.length === 0) reasons.push(t('catalog.hidden.other'));
  if (product.picture === null) reasons.push(t('catalog.hidden.noPicture'));
  else if (product.picture_error !== null) reasons.push(t('catalog.hidden.pictureError', { error: product.picture_error }));
  return reasons;
}

export function HiddenProductsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [shown, setShown] = useState<Product | null>(null);
  const { query, items } = useKeysetList(catalogKeys.hidden(shopId), (cursor) =>
    api.GET('/admin/v1/shops/{shop_id}/products/hidden', { params: { path: { shop_id: shopId }, query: cursor ? { cursor } : {} } }),
  );
  return (
    <Page title={t('catalog.hidden.title')} hint={t('catalog.hidden.hint')}>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && items.length > 0 && (
        <ProductTable
          items={items}
          shop={shop.data}
          onOpen={setShown}
          label={t('catalog.hidden.title')}
          extra={{
            title: t('catalog.hidden.why'),
            cell: (product) => (
              <List size="sm" spacing={2}>
                {hiddenReasons(product, t).map((reason) => (
                  <List.Item key={reason}>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {reason}
                    </Text>
                  </List.Item>
                ))}
              </List>
            ),
          }}
        />
      )}
      <ListStates query={query} count={items.length} empty={t('catalog.hidden.empty')} />
      {shop.data && <ProductDrawer product={shown} shop={shop.data} onClose={() => setShown(null)} />}
    </Page>
  );
}
