import { Alert, Anchor, Badge, Button, Group, SimpleGrid, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page, Section, StatCard } from '../ui/page';
import { Empty, Failure, InlineFailure, Loading } from '../ui/states';
import { BlockForm } from './block-form';
import { useBlocks, useModelsStatus, useRebuild, type ModelsStatus } from './recommendations.queries';

/**
 * The shop's recommendation blocks (GET …/recommendation-blocks: every block at once, by
 * code; the API does not page them) and the models behind them: when they were built, a
 * build running, and "Rebuild now".
 */
export function BlocksScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const blocks = useBlocks(shopId);
  const can = usePermissions();
  const failed = blocks.error ?? shop.error;
  return (
    <Page title={t('recommendations.list.title')} hint={t('recommendations.list.hint')}>
      <ModelsPanel shopId={shopId} />
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/recommendations/new`}>
            {t('recommendations.list.new')}
          </Button>
        </Group>
      )}
      {(blocks.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([blocks.refetch(), shop.refetch()])} />}
      {blocks.data && blocks.data.blocks.length === 0 && <Empty>{t('recommendations.list.empty')}</Empty>}
      {blocks.data && shop.data && blocks.data.blocks.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={t('recommendations.list.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('recommendations.list.code')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.list.titleColumn')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.list.name')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.list.limit')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.list.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {blocks.data.blocks.map((block) => (
                <Table.Tr key={block.code}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/recommendations/${encodeURIComponent(block.code)}`} ff="monospace">
                      {block.code}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{block.title}</Table.Td>
                  <Table.Td>{block.name ?? t('common.none')}</Table.Td>
                  <Table.Td>{block.limit}</Table.Td>
                  <Table.Td>{formatDateTime(block.updated_at, shop.data, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}

/** The models' last build and "Rebuild now" (POST …/recommendations/rebuild), polled until the build is done. */
function ModelsPanel({ shopId }: { readonly shopId: string }) {
  const { t, language } = useI18n();
  const shop = useShop(shopId);
  const can = usePermissions();
  // Asked for: polled until a build has finished or failed since (the job may take a moment to start).
  const [asked, setAsked] = useState<Asked | undefined>(undefined);
  const status = useModelsStatus(shopId, (data) => asked !== undefined && !finishedSince(data, asked));
  const rebuild = useRebuild(shopId);
  const data = status.data;
  const waiting = asked !== undefined && data !== undefined && !finishedSince(data, asked);
  const when = (iso: string | null) => (iso && shop.data ? formatDateTime(iso, shop.data, language) : t('recommendations.models.never'));
  return (
    <Section title={t('recommendations.models.title')}>
      {status.isPending && <Loading />}
      {status.isError && <Failure error={status.error} onRetry={() => void status.refetch()} />}
      {data && (
        <>
          <Group gap="xs" role="status" aria-live="polite">
            {data.building || waiting ? (
              <Badge color="blue">{t('recommendations.models.building')}</Badge>
            ) : (
              <Badge color={data.built_at ? 'green' : 'gray'}>
                {data.built_at ? t('recommendations.models.ready') : t('recommendations.models.notBuilt')}
              </Badge>
            )}
            <Text size="sm">{t('recommendations.models.builtAt', { when: when(data.built_at) })}</Text>
            {data.building && data.rows_read !== null && (
              <Text size="sm">
                {t('recommendations.models.progress', { rows: new Intl.NumberFormat(language).format(data.rows_read) })}
              </Text>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 3 }} component="ul" p={0} m={0} aria-label={t('recommendations.models.counts')}>
            <StatCard component="li" label={t('recommendations.models.orders')} value={String(data.orders_read)} />
            <StatCard component="li" label={t('recommendations.models.sessions')} value={String(data.sessions_read)} />
            <StatCard component="li" label={t('recommendations.models.items')} value={String(data.items_with_neighbours)} />
          </SimpleGrid>
          {data.last_error && (
            <Alert color="red">{t('recommendations.models.failed', { when: when(data.last_error_at), error: data.last_error })}</Alert>
          )}
        </>
      )}
      {can.write && (
        <Group>
          <Button
            variant="default"
            loading={rebuild.isPending}
            disabled={data?.building || waiting}
            onClick={() =>
              rebuild.mutate(undefined, {
                onSuccess: () => setAsked({ builtAt: data?.built_at ?? null, errorAt: data?.last_error_at ?? null }),
              })
            }
          >
            {t('recommendations.models.rebuild')}
          </Button>
          {rebuild.isError && <InlineFailure error={rebuild.error} />}
        </Group>
      )}
    </Section>
  );
}

interface Asked {
  readonly builtAt: string | null;
  readonly errorAt: string | null;
}

/** A build asked for has run: it finished or failed since, and none runs now. */
function finishedSince(data: ModelsStatus | undefined, asked: Asked): boolean {
  return data !== undefined && !data.building && (data.built_at !== asked.builtAt || data.last_error_at !== asked.errorAt);
}

/** A new block: its code, fields and rules; saved, it opens its page. */
export function NewBlockScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const navigate = useNavigate();
  return (
    <Page title={t('recommendations.new.title')}>
      <Anchor component={Link} to={`/shops/${shopId}/recommendations`}>
        {t('recommendations.back')}
      </Anchor>
      <BlockForm
        shopId={shopId}
        readOnly={false}
        onSaved={(block) => void navigate(`/shops/${shopId}/recommendations/${encodeURIComponent(block.code)}`)}
      />
    </Page>
  );
}
