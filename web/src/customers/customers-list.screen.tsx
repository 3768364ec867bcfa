import { Anchor, Button, Group, Paper, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { useCustomerList, type CustomerSummary } from './customers.queries';
import { LoadMore } from './load-more';

/**
 * Find a customer by any identifier (GET …/customers?identifier=: exact match, one page), or
 * without one browse every customer newest first, a keyset page at a time. The query
 * lives in the address (?q=), so a search can be shared and survives a reload.
 */
export function CustomersListScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [params, setParams] = useSearchParams();
  const identifier = params.get('q') ?? '';
  const [text, setText] = useState(identifier);
  const list = useCustomerList(shopId, identifier);
  const failure = list.error;
  const items: CustomerSummary[] = list.data?.pages.flatMap((page) => page.items) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    setParams(q === '' ? {} : { q });
  };

  return (
    <Page title={t('customers.title')} hint={t('customers.hint')}>
      <Paper withBorder p="md">
        <form onSubmit={submit} role="search">
          <Group align="flex-end">
            <TextInput
              label={t('customers.search.label')}
              description={t('customers.search.hint')}
              placeholder={t('customers.search.placeholder')}
              maxLength={255}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit">{t('customers.search.submit')}</Button>
            {identifier !== '' && (
              <Button
                variant="subtle"
                onClick={() => {
                  setText('');
                  setParams({});
                }}
              >
                {t('customers.search.clear')}
              </Button>
            )}
          </Group>
        </form>
      </Paper>
      {(list.isPending || shop.isPending) && <Loading />}
      {list.isError && <Failure error={failure} onRetry={() => void list.refetch()} />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {list.isSuccess && items.length === 0 && (
        <Empty>{identifier === '' ? t('customers.empty') : t('customers.notFound', { identifier })}</Empty>
      )}
      {shop.data && items.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover aria-label={t('customers.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('customers.column.id')}</Table.Th>
                  <Table.Th scope="col">{t('customers.column.email')}</Table.Th>
                  <Table.Th scope="col">{t('customers.column.phone')}</Table.Th>
                  <Table.Th scope="col">{t('customers.column.externalId')}</Table.Th>
                  <Table.Th scope="col">{t('customers.column.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/shops/${shopId}/customers/${c.id}`} aria-label={t('customers.open', { id: c.id })}>
                        {c.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{c.email ?? t('common.none')}</Table.Td>
                    <Table.Td>{c.phone ?? t('common.none')}</Table.Td>
                    <Table.Td>{c.external_id ?? c.loyalty_id ?? c.telegram_id ?? t('common.none')}</Table.Td>
                    <Table.Td>{formatDateTime(c.created_at, shop.data, language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <LoadMore query={list} />
        </>
      )}
    </Page>
  );
}
