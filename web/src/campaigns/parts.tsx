import { Badge } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { Campaign } from './campaigns.queries';

const STATUS_COLOURS = { scheduled: 'blue', sending: 'yellow', done: 'green' } as const;

/** A campaign's status in words, with a colour (the words carry it, not the colour). */
export function StatusBadge({ status }: { readonly status: Campaign['status'] }) {
  const { t } = useI18n();
  return (
    <Badge color={STATUS_COLOURS[status]} variant="dot">
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
}
