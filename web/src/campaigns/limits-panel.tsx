import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { channelName } from '../dashboards/names';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Failure, Loading } from '../ui/states';
import {
  CHANNELS,
  hasLimits,
  limitsBody,
  limitsDraft,
  limitsRefusalChannel,
  type Channel,
  type LimitsDraft,
  type LimitsRow,
} from './campaign-form';
import { useLimits, usePutLimits, type MessagingLimits } from './campaigns.queries';

/**
 * The shop's frequency caps and quiet hours per channel (GET/PUT …/messaging/limits): they
 * hold for every bulk mailing (quiet hours for chains too), so they are saved on their own,
 * not with the campaign. Shown for the campaign's channels and any channel with a limit.
 */
export function LimitsPanel({
  shopId,
  channels,
  canWrite,
}: {
  readonly shopId: string;
  readonly channels: readonly Channel[];
  readonly canWrite: boolean;
}) {
  const { t } = useI18n();
  const limits = useLimits(shopId);
  const title = t('campaigns.limits.title');
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Text size="sm" c="gray.7">
          {t('campaigns.limits.hint')}
        </Text>
        {limits.isPending && <Loading />}
        {limits.isError && <Failure error={limits.error} onRetry={() => void limits.refetch()} />}
        {limits.data && <LimitsForm shopId={shopId} limits={limits.data} channels={channels} canWrite={canWrite} />}
      </Stack>
    </Paper>
  );
}

function LimitsForm({
  shopId,
  limits,
  channels,
  canWrite,
}: {
  readonly shopId: string;
  readonly limits: MessagingLimits;
  readonly channels: readonly Channel[];
  readonly canWrite: boolean;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<LimitsDraft>(() => limitsDraft(limits));
  const [problem, setProblem] = useState<Channel | null>(null);
  const [saved, setSaved] = useState(false);
  const put = usePutLimits(shopId);
  const shown = CHANNELS.filter((c) => channels.includes(c) || hasLimits(draft[c]) || (channels.length === 0 && c === 'email'));
  const refused = limitsRefusalChannel(put.error);
  const failure = refused === undefined ? formFailure(put.error, [] as const, t).form : undefined;

  const change = (channel: Channel, patch: Partial<LimitsRow>) => {
    setSaved(false);
    setProblem(null);
    setDraft((d) => ({ ...d, [channel]: { ...d[channel], ...patch } }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = limitsBody(draft);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    put.mutate(result.body, {
      onSuccess: (answer) => {
        setDraft(limitsDraft(answer));
        setSaved(true);
      },
    });
  };
  const errorOf = (c: Channel) =>
    problem === c ? t('campaigns.limits.invalid') : refused === c && put.error instanceof Error ? put.error.message : undefined;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('campaigns.limits.table')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('campaigns.audience.channel')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.limits.perDay')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.limits.perWeek')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.limits.quietFrom')}</Table.Th>
                <Table.Th scope="col">{t('campaigns.limits.quietTo')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((c) => {
                const row = draft[c];
                const name = channelName(t, c);
                const error = errorOf(c);
                return (
                  <Table.Tr key={c}>
                    <Table.Th scope="row" fw="normal">
                      {name}
                      {error && (
                        <Text size="xs" c="red.8" role="alert">
                          {error}
                        </Text>
                      )}
                    </Table.Th>
                    <Table.Td>
                      <TextInput
                        aria-label={t('campaigns.limits.perDayOf', { channel: name })}
                        value={row.perDay}
                        inputMode="numeric"
                        placeholder={t('campaigns.limits.none')}
                        disabled={!canWrite}
                        error={error !== undefined}
                        onChange={(e) => change(c, { perDay: e.currentTarget.value })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('campaigns.limits.perWeekOf', { channel: name })}
                        value={row.perWeek}
                        inputMode="numeric"
                        placeholder={t('campaigns.limits.none')}
                        disabled={!canWrite}
                        error={error !== undefined}
                        onChange={(e) => change(c, { perWeek: e.currentTarget.value })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        type="time"
                        aria-label={t('campaigns.limits.quietFromOf', { channel: name })}
                        value={row.quietFrom}
                        disabled={!canWrite}
                        error={error !== undefined}
                        onChange={(e) => change(c, { quietFrom: e.currentTarget.value })}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        type="time"
                        aria-label={t('campaigns.limits.quietToOf', { channel: name })}
                        value={row.quietTo}
                        disabled={!canWrite}
                        error={error !== undefined}
                        onChange={(e) => change(c, { quietTo: e.currentTarget.value })}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {failure && <Failure error={put.error} />}
        {saved && (
          <Text role="status" c="green.9" size="sm">
            {t('campaigns.limits.saved')}
          </Text>
        )}
        {canWrite && (
          <Group>
            <Button type="submit" variant="default" loading={put.isPending}>
              {t('campaigns.limits.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
