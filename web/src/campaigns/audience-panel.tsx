import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { channelName } from '../dashboards/names';
import { useI18n } from '../i18n/i18n';
import { Failure } from '../ui/states';
import { useAudience } from './campaigns.queries';

/**
 * The live count of the chosen segments' reachable customers per channel, after
 * unsubscribes, the dead list and the caps (GET …/mailings/bulk/audience), asked again as
 * the segments or the channels change. A count, not a promise: each member is decided
 * again when the mailing gets to it.
 */
export function AudiencePanel({
  shopId,
  segmentIds,
  channels,
}: {
  readonly shopId: string;
  readonly segmentIds: readonly number[];
  readonly channels: readonly string[];
}) {
  const { t, language } = useI18n();
  const audience = useAudience(shopId, segmentIds, channels);
  const count = new Intl.NumberFormat(language);
  const title = t('campaigns.audience.title');
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {segmentIds.length === 0 ? (
          <Text c="dimmed">{t('campaigns.audience.pickSegment')}</Text>
        ) : audience.isError ? (
          <Failure error={audience.error} onRetry={() => void audience.refetch()} />
        ) : audience.data === undefined ? (
          <Text role="status">{t('campaigns.audience.counting')}</Text>
        ) : (
          <>
            <Text role="status" aria-live="polite" fw={600}>
              {t('campaigns.audience.summary', {
                reachable: count.format(audience.data.reachable),
                members: count.format(audience.data.members),
              })}
              {audience.isFetching ? ` ${t('campaigns.audience.updating')}` : ''}
            </Text>
            <Table.ScrollContainer minWidth={560}>
              <Table aria-label={t('campaigns.audience.byChannel')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('campaigns.audience.channel')}</Table.Th>
                    <Table.Th scope="col">{t('campaigns.audience.withAddress')}</Table.Th>
                    <Table.Th scope="col">{t('campaigns.audience.unsubscribed')}</Table.Th>
                    <Table.Th scope="col">{t('campaigns.audience.bounced')}</Table.Th>
                    <Table.Th scope="col">{t('campaigns.audience.overCap')}</Table.Th>
                    <Table.Th scope="col">{t('campaigns.audience.reachable')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {Object.entries(audience.data.channels).map(([channel, c]) => (
                    <Table.Tr key={channel}>
                      <Table.Th scope="row" fw="normal">
                        {channelName(t, channel)}
                        {!c.configured && (
                          <Text span size="xs" c="red.8">
                            {' '}
                            {t('campaigns.audience.notConfigured')}
                          </Text>
                        )}
                      </Table.Th>
                      <Table.Td>{count.format(c.with_address)}</Table.Td>
                      <Table.Td>{count.format(c.unsubscribed)}</Table.Td>
                      <Table.Td>{count.format(c.bounced)}</Table.Td>
                      <Table.Td>{count.format(c.over_cap)}</Table.Td>
                      <Table.Td fw={700}>{count.format(c.reachable)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="gray.7">
              {t('campaigns.audience.note', { day: audience.data.cap_periods.day, week: audience.data.cap_periods.week })}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
