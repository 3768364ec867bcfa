import { Badge, Button, Code, CopyButton, Group, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { useShop, type Shop } from './shop.queries';
import { SNIPPET_LABELS, SNIPPET_PLATFORMS, snippet } from './snippets';

type RecentEvent =
  paths['/admin/v1/shops/{shop_id}/events/recent']['get']['responses'][200]['content']['application/json']['events'][number];

/** How many of the newest events the feed keeps on screen, and how often it asks for newer ones. */
const FEED_SIZE = 50;
const POLL_MS = 3000;

export function IntegrationScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  return (
    <Page title={t('integration.title')}>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && (
        <>
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('integration.shopId')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('integration.shopIdHint')}
              </Text>
              <Group>
                <Code fz="md" data-testid="shop-id">
                  {shop.data.shop_id}
                </Code>
                <Copy value={shop.data.shop_id} />
              </Group>
            </Stack>
          </Paper>
          <Snippets shopId={shop.data.shop_id} />
          <LiveFeed shop={shop.data} />
        </>
      )}
    </Page>
  );
}

function Copy({ value }: { readonly value: string }) {
  const { t } = useI18n();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="xs" variant="default" onClick={copy}>
          {copied ? t('integration.copied') : t('integration.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

function Snippets({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const origin = window.location.origin;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('integration.snippets')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('integration.snippetsHint')}
        </Text>
        <Tabs defaultValue="js">
          <Tabs.List>
            {SNIPPET_PLATFORMS.map((platform) => (
              <Tabs.Tab key={platform} value={platform}>
                {SNIPPET_LABELS[platform]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {SNIPPET_PLATFORMS.map((platform) => {
            const text = snippet(platform, origin, shopId);
            return (
              <Tabs.Panel key={platform} value={platform} pt="xs">
                <Stack gap="xs" align="flex-start">
                  <Code block w="100%">
                    {text}
                  </Code>
                  <Copy value={text} />
                </Stack>
              </Tabs.Panel>
            );
          })}
        </Tabs>
      </Stack>
    </Paper>
  );
}

/**
 * The shop's newest events, polled every few seconds: each poll asks only for events after
 * the newest one shown (keyset on the event id) and the feed keeps the last FEED_SIZE.
 */
function LiveFeed({ shop }: { readonly shop: Shop }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const queryKey = ['shops', shop.shop_id, 'events', 'recent'] as const;
  const feed = useQuery({
    queryKey,
    queryFn: async () => {
      const shown = queryClient.getQueryData<RecentEvent[]>(queryKey) ?? [];
      const after = shown[0]?.id;
      const answer = await unwrap(
        api.GET('/admin/v1/shops/{shop_id}/events/recent', {
          params: { path: { shop_id: shop.shop_id }, query: after === undefined ? {} : { after } },
        }),
      );
      return [...answer.events, ...shown].slice(0, FEED_SIZE);
    },
    refetchInterval: POLL_MS,
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('integration.feed')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('integration.feedHint')}
        </Text>
        {feed.isPending && <Loading />}
        {feed.isError && <Failure error={feed.error} onRetry={() => void feed.refetch()} />}
        {feed.data && feed.data.length === 0 && <Empty>{t('integration.feedEmpty')}</Empty>}
        {feed.data && feed.data.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table striped aria-live="polite">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('integration.column.time')}</Table.Th>
                  <Table.Th scope="col">{t('integration.column.event')}</Table.Th>
                  <Table.Th scope="col">{t('integration.column.device')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {feed.data.map((event) => (
                  <Table.Tr key={event.id}>
                    <Table.Td>{formatDateTime(event.time, shop, language)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        <Code>{event.event}</Code>
                        {event.custom && (
                          <Badge size="xs" variant="dot">
                            {t('integration.custom')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td ff="monospace">{event.did ?? t('common.none')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
