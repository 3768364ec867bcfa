import { Anchor, Drawer, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { formatUnits, safeHref, type Product } from './catalog.queries';

/** Every field the API gives of a product, as text; links are followed only when http(s). */
export function ProductDrawer({
  product,
  shop,
  onClose,
}: {
  readonly product: Product | null;
  readonly shop: ShopLocale;
  readonly onClose: () => void;
}) {
  const { t, language } = useI18n();
  const none = t('common.none');
  const link = (url: string | null): ReactNode => {
    if (url === null) return none;
    const href = safeHref(url);
    return href ? (
      <Anchor href={href} target="_blank" rel="noopener noreferrer">
        {url}
      </Anchor>
    ) : (
      url
    );
  };
  const amount = (value: number | null) => (value === null ? none : formatUnits(value, shop, language));
  const fields: [string, ReactNode][] = product
    ? [
        [t('catalog.product.id'), product.id],
        [t('catalog.product.name'), product.name ?? none],
        [t('catalog.product.vendor'), product.vendor ?? none],
        [t('catalog.product.price'), amount(product.price)],
        [t('catalog.product.oldprice'), amount(product.oldprice)],
        [t('catalog.product.available'), product.available ? t('catalog.yes') : t('catalog.no')],
        [t('catalog.product.shown'), product.widgetable ? t('catalog.product.shownYes') : t('catalog.product.shownNo')],
        [t('catalog.product.categories'), product.category_ids.length === 0 ? none : product.category_ids.join(', ')],
        [t('catalog.product.url'), link(product.url)],
        [t('catalog.product.picture'), link(product.picture)],
        [t('catalog.product.pictureError'), product.picture_error ?? none],
      ]
    : [];
  return (
    <Drawer
      opened={product !== null}
      onClose={onClose}
      position="right"
      title={product ? (product.name ?? product.id) : ''}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm" component="dl" m={0}>
        {fields.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="sm" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </Stack>
    </Drawer>
  );
}
