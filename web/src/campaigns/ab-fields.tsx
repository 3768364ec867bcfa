import { Button, Fieldset, Group, SegmentedControl, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import {
  emptyVariant,
  MAX_VARIANTS,
  MIN_VARIANTS,
  reshare,
  sharesTotal,
  type CampaignDraft,
  type Channel,
  type VariantDraft,
} from './campaign-form';

type AbDraft = Pick<CampaignDraft, 'ab' | 'testShare' | 'metric' | 'afterHours' | 'variants'>;

/**
 * The A/B split: the share of the audience in the test, 2 to 4 variants with their share of
 * the test and what each changes (the email's subject or HTML, the SMS), and the winner's
 * rule: the best open or click rate, chosen some hours after the test is sent.
 */
export function AbFields({
  value,
  onChange,
  channels,
  error,
  disabled,
}: {
  readonly value: AbDraft;
  readonly onChange: (patch: Partial<AbDraft>) => void;
  readonly channels: readonly Channel[];
  readonly error?: string;
  readonly disabled?: boolean;
}) {
  const { t } = useI18n();
  const total = sharesTotal(value.variants);
  const setVariant = (index: number, patch: Partial<VariantDraft>) =>
    onChange({ variants: value.variants.map((v, i) => (i === index ? { ...v, ...patch } : v)) });
  return (
    <Stack gap="sm">
      <Switch
        label={t('campaigns.ab.enable')}
        description={t('campaigns.ab.enableHint')}
        checked={value.ab}
        disabled={disabled}
        onChange={(e) => onChange({ ab: e.currentTarget.checked })}
      />
      {value.ab && (
        <Fieldset legend={t('campaigns.ab.legend')} disabled={disabled}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label={t('campaigns.ab.testShare')}
                description={t('campaigns.ab.testShareHint')}
                inputMode="numeric"
                value={value.testShare}
                onChange={(e) => onChange({ testShare: e.currentTarget.value })}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500} id="ab-metric-label">
                  {t('campaigns.ab.metric')}
                </Text>
                <SegmentedControl
                  aria-labelledby="ab-metric-label"
                  value={value.metric}
                  onChange={(metric) => onChange({ metric: metric === 'clicks' ? 'clicks' : 'opens' })}
                  data={[
                    { value: 'opens', label: t('campaigns.ab.opens') },
                    { value: 'clicks', label: t('campaigns.ab.clicks') },
                  ]}
                />
              </Stack>
              <TextInput
                label={t('campaigns.ab.afterHours')}
                description={t('campaigns.ab.afterHoursHint')}
                inputMode="numeric"
                value={value.afterHours}
                onChange={(e) => onChange({ afterHours: e.currentTarget.value })}
              />
            </SimpleGrid>
            {value.variants.map((v, i) => {
              const name = String.fromCharCode(65 + i);
              return (
                <Fieldset key={name} legend={t('campaigns.ab.variant', { name })} variant="filled">
                  <Stack gap="xs">
                    <Group align="flex-end">
                      <TextInput
                        label={t('campaigns.ab.share', { name })}
                        inputMode="numeric"
                        w={160}
                        value={v.share}
                        onChange={(e) => setVariant(i, { share: e.currentTarget.value })}
                      />
                      {value.variants.length > MIN_VARIANTS && (
                        <Button
                          variant="subtle"
                          color="red"
                          onClick={() => onChange({ variants: reshare(value.variants.filter((_, j) => j !== i)) })}
                        >
                          {t('campaigns.ab.remove', { name })}
                        </Button>
                      )}
                    </Group>
                    {channels.includes('email') && (
                      <>
                        <TextInput
                          label={t('campaigns.ab.subject', { name })}
                          placeholder={t('campaigns.ab.same')}
                          value={v.subject}
                          onChange={(e) => setVariant(i, { subject: e.currentTarget.value })}
                        />
                        <Textarea
                          label={t('campaigns.ab.html', { name })}
                          placeholder={t('campaigns.ab.same')}
                          autosize
                          minRows={2}
                          value={v.html}
                          styles={{ input: { fontFamily: 'monospace' } }}
                          onChange={(e) => setVariant(i, { html: e.currentTarget.value })}
                        />
                      </>
                    )}
                    {channels.includes('sms') && (
                      <Textarea
                        label={t('campaigns.ab.sms', { name })}
                        placeholder={t('campaigns.ab.same')}
                        autosize
                        minRows={1}
                        value={v.sms}
                        onChange={(e) => setVariant(i, { sms: e.currentTarget.value })}
                      />
                    )}
                  </Stack>
                </Fieldset>
              );
            })}
            <Group justify="space-between">
              <Text size="sm" c={total === 100 ? 'gray.7' : 'red.8'}>
                {total === 100 ? t('campaigns.ab.total') : t('campaigns.ab.totalWrong', { total })}
              </Text>
              {value.variants.length < MAX_VARIANTS && (
                <Button variant="default" onClick={() => onChange({ variants: reshare([...value.variants, emptyVariant(0)]) })}>
                  {t('campaigns.ab.add')}
                </Button>
              )}
            </Group>
          </Stack>
        </Fieldset>
      )}
      {error && (
        <Text c="red.8" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
