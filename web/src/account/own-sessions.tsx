import { Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import createClient from 'openapi-fetch';
import { useState } from 'react';
import { ApiError, sessionMiddleware, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import { Confirm } from '../users/confirm';
import { formatAt } from '../users/dates';

/**
 * GET /admin/v1/session/sessions and DELETE …/{id} come with branch i35-gaps and are not yet
 * in the generated schema: this small client is typed by their documented shape, and the
 * panel says "not available" on a 404 until they land. Once merged, switch to `api` and drop it.
 */
interface OwnSession {
  readonly id: string;
  readonly created_at: string;
  readonly last_seen_at: string;
  readonly ip: string | null;
  readonly user_agent: string | null;
  readonly current: boolean;
}
interface OwnSessionsPaths {
  '/admin/v1/session/sessions': {
    get: {
      parameters: { query?: { cursor?: string; limit?: number } };
      responses: { 200: { content: { 'application/json': { items: OwnSession[]; next_cursor: string | null } } } };
    };
  };
  '/admin/v1/session/sessions/{id}': {
    delete: { parameters: { path: { id: string } }; responses: { 204: { content?: never } } };
  };
}
const sessionsApi = createClient<OwnSessionsPaths>({ baseUrl: '', credentials: 'same-origin' });
sessionsApi.use(sessionMiddleware);

const KEY = ['session', 'sessions'] as const;

export function OwnSessions() {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const sessions = useInfiniteQuery({
    queryKey: KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(sessionsApi.GET('/admin/v1/session/sessions', { params: { query: pageParam === undefined ? {} : { cursor: pageParam } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const [ending, setEnding] = useState<OwnSession | null>(null);
  const end = useMutation({
    mutationFn: (id: string) => unwrap(sessionsApi.DELETE('/admin/v1/session/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setEnding(null);
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const missing = sessions.error instanceof ApiError && sessions.error.status === 404;
  const items = sessions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('people.sessions.title')}
        </Title>
        {missing && <Text c="dimmed">{t('people.sessions.unavailable')}</Text>}
        {sessions.isPending && <Loading />}
        {sessions.isError && !missing && <Failure error={sessions.error} onRetry={() => void sessions.refetch()} />}
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
