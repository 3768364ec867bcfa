import { Anchor, Badge, Button, Group, Table } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { formatDateTime } from '../i18n/format';
import { useI18n, type Translate } from '../i18n/i18n';
import { useShopLocale } from '../loyalty/loyalty.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { TRIGGER_KINDS } from './chain-draft';
import { useChains, type ChainBody } from './chains.queries';

/** The trigger in words: "Custom event signed_up", "Cart abandoned". */
export function triggerText(trigger: ChainBody['trigger'], t: Translate): string {
  const kind = TRIGGER_KINDS.find((k) => k in trigger);
  if (!kind) return t('chains.trigger.unknown');
  if (kind === 'event') return t('chains.trigger.eventNamed', { code: String(trigger.event) });
  return t(`chains.trigger.${kind}`);
}

/** The shop's chains by code (the API answers them all at once), each with its trigger, status and version. */
export function ChainsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShopLocale(shopId);
  const can = usePermissions();
  const chains = useChains(shopId);
  const rows = chains.data?.chains ?? [];
  return (
    <Page title={t('chains.title')} hint={t('chains.hint')}>
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/chains/new`}>
            {t('chains.new')}
          </Button>
        </Group>
      )}
      {chains.isPending && <Loading />}
      {chains.isError && <Failure error={chains.error} onRetry={() => void chains.refetch()} />}
      {chains.data && rows.length === 0 && <Empty>{t('chains.empty')}</Empty>}
      {rows.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('chains.code')}</Table.Th>
              <Table.Th scope="col">{t('chains.name')}</Table.Th>
              <Table.Th scope="col">{t('chains.trigger')}</Table.Th>
              <Table.Th scope="col">{t('chains.status')}</Table.Th>
              <Table.Th scope="col">{t('chains.stepCount')}</Table.Th>
              <Table.Th scope="col">{t('chains.version')}</Table.Th>
              <Table.Th scope="col">{t('chains.updated')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((chain) => (
              <Table.Tr key={chain.code}>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/chains/${encodeURIComponent(chain.code)}`}>
                    {chain.code}
                  </Anchor>
                </Table.Td>
                <Table.Td>{chain.name ?? ''}</Table.Td>
                <Table.Td>{triggerText(chain.trigger, t)}</Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={chain.status === 'active' ? 'green' : 'gray'}>
                    {t(`chains.status.${chain.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{chain.steps.length}</Table.Td>
                <Table.Td>{chain.version}</Table.Td>
                <Table.Td>{shop ? formatDateTime(chain.updated_at, shop, language) : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}
