import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';
import { useCustomerSearch } from './templates.queries';

/** The customer whose profile the preview reads: its id and how the user found it. */
export interface Sample {
  readonly id: number;
  readonly label: string;
}

/**
 * The preview's sample data: a real customer of the shop found by one identifier (an email,
 * a phone, an external id… through GET …/customers?identifier=), or the sample profile.
 */
export function SamplePicker({
  shopId,
  sample,
  onPick,
}: {
  readonly shopId: string;
  readonly sample: Sample | null;
  readonly onPick: (sample: Sample | null) => void;
}) {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  const found = useCustomerSearch(shopId, searched);
  const search = () => setSearched(typed.trim());

  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end">
        <TextInput
          label={t('templates.sample.search')}
          description={t('templates.sample.searchHint')}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              search();
            }
          }}
          style={{ flex: 1 }}
        />
        <Button variant="default" onClick={search} disabled={typed.trim() === ''} loading={found.isFetching}>
          {t('templates.sample.find')}
        </Button>
      </Group>
      {searched !== '' && found.isError && (
        <Text size="sm" c="red.9" role="alert">
          {describeFailure(found.error, t)}
        </Text>
      )}
      {searched !== '' && found.isSuccess && found.data.items.length === 0 && (
        <Text size="sm" role="status">
          {t('templates.sample.none', { identifier: searched })}
        </Text>
      )}
      {searched !== '' && found.isSuccess && found.data.items.length > 0 && (
        <Group gap="xs">
          {found.data.items.map((c) => {
            const label = c.email ?? c.phone ?? c.external_id ?? c.loyalty_id ?? c.telegram_id ?? String(c.id);
            return (
              <Button key={c.id} size="xs" variant={sample?.id === c.id ? 'filled' : 'light'} onClick={() => onPick({ id: c.id, label })}>
                {t('templates.sample.use', { label, id: c.id })}
              </Button>
            );
          })}
        </Group>
      )}
      <Group gap="xs">
        <Text size="sm">
          {sample === null ? t('templates.sample.usingSample') : t('templates.sample.using', { label: sample.label, id: sample.id })}
        </Text>
        {sample !== null && (
          <Button size="xs" variant="subtle" onClick={() => onPick(null)}>
            {t('templates.sample.useSample')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
