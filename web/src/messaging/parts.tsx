import { Badge, Group } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/en';
import { CHANNELS } from './log-filters';

/** The outcomes of a delivery the log records, in the order a reader cares: a complaint or bounce first. */
const OUTCOME_FIELDS = [
  ['complained_at', 'complained'],
  ['hard_bounced_at', 'hard_bounced'],
  ['soft_bounced_at', 'soft_bounced'],
  ['unsubscribed_at', 'unsubscribed'],
  ['purchased_at', 'purchased'],
  ['clicked_at', 'clicked'],
  ['opened_at', 'opened'],
  ['delivered_at', 'delivered'],
] as const;

export type Outcomes = Readonly<Record<(typeof OUTCOME_FIELDS)[number][0], string | null>>;

/** What became of a delivery as badges; a dash when nothing is recorded yet. */
export function OutcomeBadges({ outcomes }: { readonly outcomes: Outcomes }) {
  const { t } = useI18n();
  const reached = OUTCOME_FIELDS.filter(([field]) => outcomes[field] !== null);
  if (reached.length === 0) return <>{t('messaging.outcome.none')}</>;
  return (
    <Group gap={4}>
      {reached.map(([field, name]) => (
        <Badge key={field} variant="dot" color={name.endsWith('bounced') || name === 'complained' ? 'red' : 'gray'}>
          {t(`messaging.outcome.${name}`)}
        </Badge>
      ))}
    </Group>
  );
}

export { OUTCOME_FIELDS };

/** A channel's name in words; an unknown one as the API spells it. */
export function useChannelLabel(): (channel: string) => string {
  const { t } = useI18n();
  return (channel) => ((CHANNELS as readonly string[]).includes(channel) ? t(`messaging.channel.${channel}` as MessageKey) : channel);
}
