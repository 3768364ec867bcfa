import { Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import { Confirm } from '../users/confirm';
import { formatAt } from '../users/dates';

type OwnSession = NonNullable<paths['/admin/v1/session/sessions']['get']['responses'][200]['content']['application/json']>['items'][number];

const KEY = ['session', 'sessions'] as const;

export function OwnSessions() {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const sessions = useInfiniteQuery({
    queryKey: KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/admin/v1/session/sessions', { params: { query: pageParam === undefined ? {} : { cursor: pageParam } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const [ending, setEnding] = useState<OwnSession | null>(null);
  const end = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/admin/v1/session/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setEnding(null);
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const items = sessions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('people.sessions.title')}
        </Title>
        {sessions.isPending && <Loading />}
        {sessions.isError && <Failure error={sessions.error} onRetry={() => void sessions.refetch()} />}
        {sessions.isSuccess && items.length === 0 && <Empty>{t('people.sessions.empty')}</Empty>}
        {items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label={t('people.sessions.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('people.sessions.signedIn')}</Table.Th>
                  <Table.Th scope="col">{t('people.sessions.lastSeen')}</Table.Th>
                  <Table.Th scope="col">{t('people.sessions.from')}</Table.Th>
                  <Table.Th scope="col">{t('people.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>{formatAt(item.created_at, null, language)}</Table.Td>
                    <Table.Td>{formatAt(item.last_seen_at, null, language)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{item.user_agent ?? t('common.none')}</Text>
                      <Text size="xs" c="dimmed">
                        {item.ip ?? t('common.none')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {item.current ? (
                        <Badge variant="default">{t('people.sessions.current')}</Badge>
                      ) : (
                        <Button
                          size="xs"
                          variant="default"
                          color="red"
                          onClick={() => {
                            end.reset();
                            setEnding(item);
                          }}
                        >
                          {t('people.sessions.end')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {sessions.hasNextPage && (
          <Button variant="default" loading={sessions.isFetchingNextPage} onClick={() => void sessions.fetchNextPage()}>
            {t('people.loadMore')}
          </Button>
        )}
      </Stack>
      <Confirm
        opened={ending !== null}
        title={t('people.sessions.endTitle')}
        text={t('people.sessions.endText')}
        confirmLabel={t('people.sessions.end')}
        pending={end.isPending}
        error={end.error}
        onConfirm={() => ending && end.mutate(ending.id)}
        onCancel={() => setEnding(null)}
      />
    </Paper>
  );
}
