import { Anchor, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useI18n } from '../i18n/i18n';
import { TRIGGER_KINDS, type TriggerDraft } from './chain-draft';
import { useCustomEventCodes } from './chains.queries';
import { DurationInput } from './step-fields';

/** The chain's trigger: its kind, then what that kind needs (the custom event's code, a delay, a segment). */
export function TriggerFields({
  shopId,
  trigger,
  onChange,
  error,
  segments,
}: {
  readonly shopId: string;
  readonly trigger: TriggerDraft;
  readonly onChange: (trigger: TriggerDraft) => void;
  readonly error: string | undefined;
  readonly segments: readonly { readonly value: string; readonly label: string }[];
}) {
  const { t } = useI18n();
  const codes = useCustomEventCodes(shopId);
  const eventOptions = (codes.data?.custom_events ?? []).map((c) => ({ value: c.code, label: c.name ? `${c.code} (${c.name})` : c.code }));
  if (trigger.kind === 'event' && trigger.event !== '' && !eventOptions.some((o) => o.value === trigger.event)) {
    eventOptions.push({ value: trigger.event, label: trigger.event });
  }
  return (
    <Paper withBorder p="md">
      <Stack gap="sm" maw={640}>
        <Title order={2} size="h4">
          {t('chains.trigger')}
        </Title>
        <Select
          label={t('chains.trigger.kind')}
          data={TRIGGER_KINDS.map((k) => ({ value: k, label: t(`chains.trigger.${k}`) }))}
          value={trigger.kind}
          onChange={(k) => k && onChange({ ...trigger, kind: k })}
          allowDeselect={false}
          error={trigger.kind === 'back_in_stock' || trigger.kind === 'price_drop' ? error : undefined}
        />
        {trigger.kind === 'event' && (
          <>
            <Select
              label={t('chains.trigger.eventCode')}
              data={eventOptions}
              value={trigger.event === '' ? null : trigger.event}
              onChange={(code) => onChange({ ...trigger, event: code ?? '' })}
              searchable
              nothingFoundMessage={t('chains.trigger.noCodes')}
              error={error}
            />
            <Text size="sm" c="dimmed">
              {t('chains.trigger.eventHint')}{' '}
              <Anchor component={Link} to={`/shops/${shopId}/event-codes`} size="sm" underline="always">
                {t('chains.trigger.eventCodesLink')}
              </Anchor>
            </Text>
          </>
        )}
        {(trigger.kind === 'abandoned_cart' || trigger.kind === 'abandoned_wish') && (
          <DurationInput
            label={t('chains.trigger.after')}
            value={trigger.after}
            onChange={(after) => onChange({ ...trigger, after })}
            error={error}
          />
        )}
        {trigger.kind === 'segment_entry' && (
          <Select
            label={t('chains.trigger.segment')}
            data={segments}
            value={trigger.segmentId === '' ? null : trigger.segmentId}
            onChange={(id) => onChange({ ...trigger, segmentId: id ?? '' })}
            searchable
            nothingFoundMessage={t('chains.segment.none')}
            error={error}
          />
        )}
      </Stack>
    </Paper>
  );
}
