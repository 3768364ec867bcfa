import { ActionIcon, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { catalogKeys, useKeysetList, type CategoryNode } from './catalog.queries';
import { ListStates } from './list-parts';

/** The category tree of the served catalog, one level at a time: a level is asked for when it is opened. */
export function CategoriesScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  return (
    <Page title={t('catalog.categories.title')} hint={t('catalog.categories.hint')}>
      <Level shopId={shopId} parent={null} />
    </Page>
  );
}

function Level({ shopId, parent }: { readonly shopId: string; readonly parent: string | null }) {
  const { t } = useI18n();
  const { query, items } = useKeysetList(catalogKeys.categories(shopId, parent), (cursor) =>
    api.GET('/admin/v1/shops/{shop_id}/categories', {
      params: { path: { shop_id: shopId }, query: { ...(parent === null ? {} : { parent }), ...(cursor ? { cursor } : {}) } },
    }),
  );
  return (
    <Stack gap={4} pl={parent === null ? 0 : 'lg'}>
      {items.length > 0 && (
        <ul
          role={parent === null ? 'tree' : 'group'}
          aria-label={parent === null ? t('catalog.categories.title') : undefined}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {items.map((node) => (
            <Node key={node.id} shopId={shopId} node={node} />
          ))}
        </ul>
      )}
      <ListStates
        query={query}
        count={items.length}
        empty={parent === null ? t('catalog.categories.empty') : t('catalog.categories.noChildren')}
      />
    </Stack>
  );
}

function Node({ shopId, node }: { readonly shopId: string; readonly node: CategoryNode }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <li role="treeitem" aria-expanded={node.has_children ? open : undefined} aria-selected={false}>
      <Group gap="xs" wrap="nowrap" py={2}>
        {node.has_children ? (
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t(open ? 'catalog.categories.collapse' : 'catalog.categories.expand', { name: node.name })}
            onClick={() => setOpen(!open)}
          >
            <span aria-hidden>{open ? '▾' : '▸'}</span>
          </ActionIcon>
        ) : (
          <span style={{ width: 22, display: 'inline-block' }} />
        )}
        <Text>{node.name}</Text>
        <Text size="sm" c="dimmed" ff="monospace">
          {node.external_id}
        </Text>
        <Badge variant="default" color="gray">
          {t('catalog.categories.count', { count: node.product_count })}
        </Badge>
        {node.product_count > 0 && (
          <Anchor component={Link} size="sm" to={`/shops/${shopId}/products?category=${encodeURIComponent(node.external_id)}`}>
            {t('catalog.categories.products', { name: node.name })}
          </Anchor>
        )}
      </Group>
      {open && <Level shopId={shopId} parent={node.external_id} />}
    </li>
  );
}
