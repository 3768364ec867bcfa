import { Table } from '@mantine/core';
import { useParams } from 'react-router';
import { api } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { catalogKeys, useKeysetList } from './catalog.queries';
import { ListStates } from './list-parts';

/** Full searches of the last two weeks that found nothing, most frequent first (the API recounts them once a minute). */
export function NoResultsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const { query, items } = useKeysetList(catalogKeys.noResults(shopId), (cursor) =>
    api.GET('/admin/v1/shops/{shop_id}/search/no-results', { params: { path: { shop_id: shopId }, query: cursor ? { cursor } : {} } }),
  );
  const number = new Intl.NumberFormat(language);
  return (
    <Page title={t('catalog.noResults.title')} hint={t('catalog.noResults.hint')}>
      {items.length > 0 && (
        <Table striped aria-label={t('catalog.noResults.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('catalog.noResults.query')}</Table.Th>
              <Table.Th scope="col" style={{ textAlign: 'right' }}>
                {t('catalog.noResults.count')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.query}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.query}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{number.format(item.quantity)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ListStates query={query} count={items.length} empty={t('catalog.noResults.empty')} />
    </Page>
  );
}
