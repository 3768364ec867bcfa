import { Badge, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import type { AudienceImport } from './customers.queries';

const STATUS_COLOR = { queued: 'gray', running: 'blue', done: 'green', failed: 'red' } as const;

export function ImportStatus({ status }: { readonly status: AudienceImport['status'] }) {
  const { t } = useI18n();
  return (
    <Badge variant="dot" color={STATUS_COLOR[status]}>
      {t(`customers.imports.status.${status}`)}
    </Badge>
  );
}

/**
 * One import: a progress bar while it runs (records read of those received), then what it
 * did: imported, new profiles, skipped by reason with the first skipped records, fields
 * dropped and keys that are no property of the shop.
 */
export function ImportReport({ entry, shop }: { readonly entry: AudienceImport; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const count = new Intl.NumberFormat(language);
  const percent = entry.received === 0 ? 100 : Math.round((entry.processed / entry.received) * 100);
  const running = entry.status === 'queued' || entry.status === 'running';
  const reasons = Object.entries(entry.skipped_reasons);
  const unknown = Object.keys(entry.unknown_properties);
  return (
    <Stack gap="sm" data-testid="import-report">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('customers.imports.reportTitle', { id: entry.id })}
        </Title>
        <ImportStatus status={entry.status} />
      </Group>
      <Progress.Root size="lg">
        <Progress.Section
          value={entry.status === 'done' ? 100 : percent}
          animated={running}
          aria-label={t('customers.imports.progress')}
          aria-valuetext={t('customers.imports.progressText', {
            processed: count.format(entry.processed),
            received: count.format(entry.received),
          })}
        />
      </Progress.Root>
      <Text size="sm" role="status" aria-live="polite">
        {t('customers.imports.progressText', { processed: count.format(entry.processed), received: count.format(entry.received) })}
      </Text>
      {!running && (
        <>
          <Text>
            {t('customers.imports.summary', {
              imported: count.format(entry.imported),
              created: count.format(entry.profiles_created),
              skipped: count.format(entry.skipped),
            })}
          </Text>
          {entry.finished_at !== null && (
            <Text size="sm" c="dimmed">
              {t('customers.imports.finished', { at: formatDateTime(entry.finished_at, shop, language) })}
            </Text>
          )}
        </>
      )}
      {reasons.length > 0 && (
        <>
          <Title order={3} size="h5">
            {t('customers.imports.skippedTitle')}
          </Title>
          <List size="sm">
            {reasons.map(([reason, n]) => (
              <List.Item key={reason}>{t('customers.imports.reasonCount', { reason, count: count.format(n) })}</List.Item>
            ))}
          </List>
          <List size="sm" data-testid="skipped-records">
            {entry.errors.map((e) => (
              <List.Item key={`${e.index}-${e.reason}`}>
                {t('customers.imports.skippedRecord', { record: e.index + 1, reason: e.reason, message: e.message })}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {entry.warnings.length > 0 && (
        <>
          <Title order={3} size="h5">
            {t('customers.imports.droppedTitle')}
          </Title>
          <List size="sm">
            {entry.warnings.map((w) => (
              <List.Item key={`${w.index}-${w.field}`}>
                {t('customers.imports.droppedField', { record: w.index + 1, field: w.field, message: w.message })}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {unknown.length > 0 && <Text size="sm">{t('customers.imports.unknown', { keys: unknown.join(', ') })}</Text>}
    </Stack>
  );
}
