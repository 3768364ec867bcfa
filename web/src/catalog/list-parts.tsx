import { Button, Group } from '@mantine/core';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';

/** The states of a keyset list: loading, failure, empty, and "Load more" while a next page exists. */
export function ListStates({
  query,
  count,
  empty,
}: {
  readonly query: UseInfiniteQueryResult;
  readonly count: number;
  readonly empty: string;
}) {
  const { t } = useI18n();
  if (query.isPending) return <Loading />;
  if (query.isError && count === 0) return <Failure error={query.error} onRetry={() => void query.refetch()} />;
  if (count === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      {query.isFetchNextPageError && <Failure error={query.error} onRetry={() => void query.fetchNextPage()} />}
      {query.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('catalog.loadMore')}
          </Button>
        </Group>
      )}
    </>
  );
}
