import { Anchor, Badge, Button, Group, Paper, Select, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../api/client';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { catalogKeys, formatUnits, useKeysetList, type Product } from './catalog.queries';
import { ListStates } from './list-parts';
import { ProductDrawer } from './product-drawer';

type Availability = 'any' | 'true' | 'false';

/**
 * The served catalog, filtered on the server by text (offer id or part of the name), feed
 * category and stock, keyset paged. The filters live in the address, so a filtered list can
 * be shared or reloaded.
 */
export function ProductsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [params, setParams] = useSearchParams();
  const filters = {
    query: params.get('query') ?? '',
    category: params.get('category') ?? '',
    available: (params.get('available') ?? 'any') as Availability,
  };
  return (
    <Page title={t('catalog.products.title')} hint={t('catalog.products.hint')}>
      <Filters
        key={JSON.stringify(filters)}
        initial={filters}
        onApply={(next) => {
          const search = new URLSearchParams();
          if (next.query.trim()) search.set('query', next.query.trim());
          if (next.category.trim()) search.set('category', next.category.trim());
          if (next.available !== 'any') search.set('available', next.available);
          setParams(search);
        }}
      />
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && <ProductList shopId={shopId} shop={shop.data} filters={filters} />}
    </Page>
  );
}

interface ProductFilters {
  readonly query: string;
  readonly category: string;
  readonly available: Availability;
}

function Filters({ initial, onApply }: { readonly initial: ProductFilters; readonly onApply: (filters: ProductFilters) => void }) {
  const { t } = useI18n();
  const [query, setQuery] = useState(initial.query);
  const [category, setCategory] = useState(initial.category);
  const [available, setAvailable] = useState<Availability>(initial.available);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ query, category, available });
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} role="search" aria-label={t('catalog.products.filters')}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('catalog.products.query')}
            description={t('catalog.products.queryHint')}
            maxLength={255}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            style={{ flex: 2, minWidth: 200 }}
          />
          <TextInput
            label={t('catalog.products.category')}
            description={t('catalog.products.categoryHint')}
            maxLength={255}
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 140 }}
          />
          <Select
            label={t('catalog.products.available')}
            data={[
              { value: 'any', label: t('catalog.products.available.any') },
              { value: 'true', label: t('catalog.products.available.true') },
              { value: 'false', label: t('catalog.products.available.false') },
            ]}
            value={available}
            onChange={(value) => setAvailable(value ?? 'any')}
            allowDeselect={false}
            style={{ flex: 1, minWidth: 140 }}
          />
          <Button type="submit">{t('catalog.products.apply')}</Button>
        </Group>
      </form>
    </Paper>
  );
}

function ProductList({ shopId, shop, filters }: { readonly shopId: string; readonly shop: ShopLocale; readonly filters: ProductFilters }) {
  const { t } = useI18n();
  const [shown, setShown] = useState<Product | null>(null);
  const { query, items } = useKeysetList(catalogKeys.products(shopId, filters), (cursor) =>
    api.GET('/admin/v1/shops/{shop_id}/products', {
      params: {
        path: { shop_id: shopId },
        query: {
          ...(filters.query.trim() ? { query: filters.query.trim() } : {}),
          ...(filters.category.trim() ? { category: filters.category.trim() } : {}),
          ...(filters.available === 'any' ? {} : { available: filters.available === 'true' }),
          ...(cursor ? { cursor } : {}),
        },
      },
    }),
  );
  const filtered = filters.query !== '' || filters.category !== '' || filters.available !== 'any';
  return (
    <>
      {items.length > 0 && <ProductTable items={items} shop={shop} onOpen={setShown} label={t('catalog.products.title')} />}
      <ListStates query={query} count={items.length} empty={filtered ? t('catalog.products.noMatch') : t('catalog.products.empty')} />
      <ProductDrawer product={shown} shop={shop} onClose={() => setShown(null)} />
    </>
  );
}

/** A table of products; the name opens the detail drawer. Shared by the browser and the hidden list. */
export function ProductTable({
  items,
  shop,
  onOpen,
  label,
  extra,
}: {
  readonly items: readonly Product[];
  readonly shop: ShopLocale;
  readonly onOpen: (product: Product) => void;
  readonly label: string;
  readonly extra?: { readonly title: string; readonly cell: (product: Product) => ReactNode };
}) {
  const { t, language } = useI18n();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('catalog.product.id')}</Table.Th>
            <Table.Th scope="col">{t('catalog.product.name')}</Table.Th>
            <Table.Th scope="col">{t('catalog.product.price')}</Table.Th>
            <Table.Th scope="col">{t('catalog.product.available')}</Table.Th>
            {extra ? <Table.Th scope="col">{extra.title}</Table.Th> : <Table.Th scope="col">{t('catalog.product.shown')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((product) => (
            <Table.Tr key={product.id}>
              <Table.Td ff="monospace">{product.id}</Table.Td>
              <Table.Td>
                <Anchor component="button" type="button" onClick={() => onOpen(product)} style={{ textAlign: 'left' }}>
                  {product.name ?? t('catalog.product.noName')}
                </Anchor>
              </Table.Td>
              <Table.Td>{product.price === null ? t('common.none') : formatUnits(product.price, shop, language)}</Table.Td>
              <Table.Td>{product.available ? t('catalog.yes') : t('catalog.no')}</Table.Td>
              <Table.Td>
                {extra ? (
                  extra.cell(product)
                ) : (
                  <Badge variant="dot" color={product.widgetable ? 'green' : 'gray'}>
                    {product.widgetable ? t('catalog.product.shownYes') : t('catalog.product.shownNo')}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
