import { Checkbox, Fieldset, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { MailingTemplates } from './campaign-form';

/**
 * The campaign's message as a plain structured form: an email (subject, HTML with Liquid,
 * optional text) and an SMS. The value is the templates object as the API holds it, so the
 * shared template editor takes its place without the form around it changing.
 */
export function TemplateFields({
  value,
  onChange,
  error,
  disabled,
}: {
  readonly value: MailingTemplates;
  readonly onChange: (next: MailingTemplates) => void;
  readonly error?: string;
  readonly disabled?: boolean;
}) {
  const { t } = useI18n();
  const email = value.email;
  const sms = value.sms;
  const set = (patch: Partial<MailingTemplates>) => {
    const next: MailingTemplates = { ...value, ...patch };
    for (const key of Object.keys(patch) as (keyof MailingTemplates)[]) if (patch[key] === undefined) delete next[key];
    onChange(next);
  };
  return (
    <Stack gap="sm">
      <Group>
        <Checkbox
          label={t('campaigns.template.email')}
          checked={email !== undefined}
          disabled={disabled}
          onChange={(e) => set({ email: e.currentTarget.checked ? { subject: '', html: '' } : undefined })}
        />
        <Checkbox
          label={t('campaigns.template.sms')}
          checked={sms !== undefined}
          disabled={disabled}
          onChange={(e) => set({ sms: e.currentTarget.checked ? { body: '' } : undefined })}
        />
      </Group>
      {email && (
        <Fieldset legend={t('campaigns.template.email')} disabled={disabled}>
          <Stack gap="sm">
            <TextInput
              label={t('campaigns.template.subject')}
              value={email.subject}
              onChange={(e) => set({ email: { ...email, subject: e.currentTarget.value } })}
              required
            />
            <Textarea
              label={t('campaigns.template.html')}
              description={t('campaigns.template.liquid')}
              value={email.html}
              onChange={(e) => set({ email: { ...email, html: e.currentTarget.value } })}
              autosize
              minRows={6}
              styles={{ input: { fontFamily: 'monospace' } }}
              required
            />
          </Stack>
        </Fieldset>
      )}
      {sms && (
        <Fieldset legend={t('campaigns.template.sms')} disabled={disabled}>
          <Textarea
            label={t('campaigns.template.smsBody')}
            description={t('campaigns.template.liquid')}
            value={sms.body}
            onChange={(e) => set({ sms: { body: e.currentTarget.value } })}
            autosize
            minRows={2}
            required
          />
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
