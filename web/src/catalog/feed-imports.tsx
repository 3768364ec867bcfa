import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import { catalogKeys, type FeedImport } from './catalog.queries';

/** How often the log is asked again while an import runs, and how many entries a page holds. */
const POLL_MS = 1000;
const PAGE = 20;

const STATUS_COLOR = { running: 'blue', done: 'green', failed: 'red' } as const;

/**
 * The import log, newest first (GET …/feed/imports, keyset paged by `before`; "Show more"
 * appends the next older page). Polled every second while an upload is on its way or an
 * import is running, so the counts move as it goes.
 */
export function ImportLog({
  shopId,
  shop,
  uploading,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly uploading: boolean;
}) {
  const { t, language } = useI18n();
  const [open, setOpen] = useState<number | null>(null);
  const imports = useInfiniteQuery({
    queryKey: catalogKeys.imports(shopId),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/feed/imports', {
          params: { path: { shop_id: shopId }, query: { limit: PAGE, ...(pageParam === undefined ? {} : { before: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_before ?? undefined,
    refetchInterval: (query) => (uploading || query.state.data?.pages[0]?.imports.some((i) => i.status === 'running') ? POLL_MS : false),
  });
  const list = imports.data?.pages.flatMap((page) => page.imports) ?? [];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('catalog.log.title')}
        </Title>
        {imports.isPending && <Loading />}
        {imports.isError && <Failure error={imports.error} onRetry={() => void imports.refetch()} />}
        {imports.data && list.length === 0 && <Empty>{t('catalog.log.empty')}</Empty>}
        {list.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label={t('catalog.log.title')} aria-live="polite">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('catalog.log.started')}</Table.Th>
                  <Table.Th scope="col">{t('catalog.log.source')}</Table.Th>
                  <Table.Th scope="col">{t('catalog.log.status')}</Table.Th>
                  <Table.Th scope="col">{t('catalog.log.products')}</Table.Th>
                  <Table.Th scope="col">{t('catalog.log.categories')}</Table.Th>
                  <Table.Th scope="col">{t('catalog.log.skipped')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((entry) => (
                  <Fragment key={entry.generation}>
                    <Table.Tr data-testid="import-row">
                      <Table.Td>{formatDateTime(entry.started_at, shop, language)}</Table.Td>
                      <Table.Td>{t(`catalog.log.source.${entry.source}`)}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[entry.status]} variant="dot">
                          {t(`catalog.log.status.${entry.status}`)}
                        </Badge>
                        {entry.error !== null && (
                          <Text size="sm" c="red.9">
                            {entry.error}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{entry.products}</Table.Td>
                      <Table.Td>{entry.categories}</Table.Td>
                      <Table.Td>
                        {entry.skipped_count === 0 ? (
                          '0'
                        ) : (
                          <Anchor
                            component="button"
                            type="button"
                            size="sm"
                            aria-expanded={open === entry.generation}
                            onClick={() => setOpen(open === entry.generation ? null : entry.generation)}
                          >
                            {t('catalog.log.showSkipped', { count: entry.skipped_count })}
                          </Anchor>
                        )}
                      </Table.Td>
                    </Table.Tr>
                    {open === entry.generation && (
                      <Table.Tr>
                        <Table.Td colSpan={6}>
                          <SkippedList entry={entry} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {imports.hasNextPage && (
          <Group justify="center">
            <Button variant="default" loading={imports.isFetchingNextPage} onClick={() => void imports.fetchNextPage()}>
              {t('catalog.log.more')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function SkippedList({ entry }: { readonly entry: FeedImport }) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      {entry.skipped_count > entry.skipped.length && (
        <Text size="sm" c="dimmed">
          {t('catalog.log.skippedFirst', { shown: entry.skipped.length, count: entry.skipped_count })}
        </Text>
      )}
      <Table aria-label={t('catalog.log.skippedTitle')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('catalog.log.skippedId')}</Table.Th>
            <Table.Th scope="col">{t('catalog.log.skippedReason')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entry.skipped.map((item, index) => (
            // Two entries may share an id (a repeated offer), so the position keys them.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once the import ends
            <Table.Tr key={index}>
              <Table.Td ff="monospace">{item.id === '' ? t('catalog.log.noId') : item.id}</Table.Td>
              <Table.Td>{item.reason}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
