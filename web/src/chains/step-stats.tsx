import { Group, Text } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { StepStats } from './chains.queries';

const RUN_COUNTS = ['entered', 'waiting', 'exited', 'done'] as const;
const MESSAGE_COUNTS = ['sent', 'opened', 'clicked'] as const;

/** A step's runs (entered, waiting at it, exited or done there) and, for a send step, its messages sent, opened and clicked. */
export function StepStatsLine({ stats }: { readonly stats: StepStats }) {
  const { t, language } = useI18n();
  const number = new Intl.NumberFormat(language);
  const counts: [string, number][] = RUN_COUNTS.map((k) => [k, stats[k]]);
  for (const k of MESSAGE_COUNTS) {
    const value = stats[k];
    if (value !== undefined) counts.push([k, value]);
  }
  return (
    <Group gap="md" aria-label={t('chains.stats.label')} role="group">
      {counts.map(([k, value]) => (
        <Text key={k} size="sm" c="gray.8">
          {t(`chains.stats.${k as (typeof RUN_COUNTS)[number] | (typeof MESSAGE_COUNTS)[number]}`, { count: number.format(value) })}
        </Text>
      ))}
    </Group>
  );
}
