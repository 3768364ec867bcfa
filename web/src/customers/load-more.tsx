import { Button, Group } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import { Failure } from '../ui/states';

interface PagedQuery {
  readonly hasNextPage: boolean;
  readonly isFetchingNextPage: boolean;
  readonly isFetchNextPageError: boolean;
  readonly error: unknown;
  readonly fetchNextPage: () => Promise<unknown>;
}

/** "Load more" under a keyset-paged list: the next page is appended; a failed page says so and offers the button again. */
export function LoadMore({ query, label }: { readonly query: PagedQuery; readonly label?: string }) {
  const { t } = useI18n();
  return (
    <>
      {query.isFetchNextPageError && <Failure error={query.error} />}
      {query.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {label ?? t('customers.loadMore')}
          </Button>
        </Group>
      )}
    </>
  );
}
