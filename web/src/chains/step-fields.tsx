import { Checkbox, Group, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import { UNITS, type Duration, type IfStep, type SendStep, type WaitStep, CONDITION_KINDS } from './chain-draft';
import type { MailingTemplates } from './chains.queries';

/** An amount and its unit (minutes, hours, days, seconds), with the refusal of either shown under the pair. */
export function DurationInput({
  label,
  value,
  onChange,
  error,
}: {
  readonly label: string;
  readonly value: Duration;
  readonly onChange: (value: Duration) => void;
  readonly error?: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        inputMode="numeric"
        w={140}
        value={value.amount}
        onChange={(e) => onChange({ ...value, amount: e.currentTarget.value })}
        error={error}
      />
      <Select
        label={t('chains.unit')}
        w={130}
        data={UNITS.map((u) => ({ value: u, label: t(`chains.unit.${u}`) }))}
        value={value.unit}
        onChange={(u) => u && onChange({ ...value, unit: u })}
        allowDeselect={false}
      />
    </Group>
  );
}

export function WaitFields({
  step,
  onChange,
  error,
}: {
  readonly step: WaitStep;
  readonly onChange: (step: WaitStep) => void;
  readonly error: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      <Select
        label={t('chains.wait.mode')}
        w={280}
        data={[
          { value: 'for', label: t('chains.wait.for') },
          { value: 'until', label: t('chains.wait.until') },
        ]}
        value={step.mode}
        onChange={(m) => m && onChange({ ...step, mode: m })}
        allowDeselect={false}
      />
      {step.mode === 'for' ? (
        <DurationInput
          label={t('chains.wait.amount')}
          value={step.duration}
          onChange={(duration) => onChange({ ...step, duration })}
          error={error}
        />
      ) : (
        <TextInput
          label={t('chains.wait.time')}
          description={t('chains.wait.timeHint')}
          placeholder="10:00"
          w={200}
          value={step.until}
          onChange={(e) => onChange({ ...step, until: e.currentTarget.value })}
          error={error}
        />
      )}
    </Stack>
  );
}

export function ConditionFields({
  step,
  onChange,
  error,
  segments,
}: {
  readonly step: IfStep;
  readonly onChange: (step: IfStep) => void;
  readonly error: string | undefined;
  readonly segments: readonly { readonly value: string; readonly label: string }[];
}) {
  const { t } = useI18n();
  const c = step.condition;
  return (
    <Stack gap="xs">
      <Select
        label={t('chains.if.kind')}
        w={360}
        data={CONDITION_KINDS.map((k) => ({ value: k, label: t(`chains.if.kind.${k}`) }))}
        value={c}
        onChange={(k) => k && onChange({ ...step, condition: k })}
        allowDeselect={false}
        error={c === 'purchased' || c === 'opened' || c === 'clicked' ? error : undefined}
      />
      {(c === 'variable' || c === 'property') && (
        <Group align="flex-start" gap="xs">
          <TextInput
            label={c === 'variable' ? t('chains.if.variable') : t('chains.if.property')}
            maxLength={64}
            value={step.name}
            onChange={(e) => onChange({ ...step, name: e.currentTarget.value })}
            error={error}
          />
          <TextInput
            label={t('chains.if.equals')}
            maxLength={1000}
            value={step.equals}
            onChange={(e) => onChange({ ...step, equals: e.currentTarget.value })}
          />
        </Group>
      )}
      {(c === 'purchased' || c === 'opened' || c === 'clicked') && (
        <Switch
          label={t(`chains.if.flag.${c}`)}
          checked={step.flag}
          onChange={(e) => onChange({ ...step, flag: e.currentTarget.checked })}
        />
      )}
      {c === 'level' && (
        <TextInput
          label={t('chains.if.level')}
          maxLength={64}
          w={280}
          value={step.name}
          onChange={(e) => onChange({ ...step, name: e.currentTarget.value })}
          error={error}
        />
      )}
      {c === 'segment' && (
        <Select
          label={t('chains.if.segment')}
          w={360}
          data={segments}
          value={step.segmentId === '' ? null : step.segmentId}
          onChange={(id) => onChange({ ...step, segmentId: id ?? '' })}
          searchable
          nothingFoundMessage={t('chains.segment.none')}
          error={error}
        />
      )}
      <Text size="sm" c="dimmed">
        {t('chains.if.else')}
      </Text>
    </Stack>
  );
}

type Email = NonNullable<MailingTemplates['email']>;
type Sms = NonNullable<MailingTemplates['sms']>;

/**
 * A send step's email and SMS templates as plain fields: the subject and HTML of the email,
 * the text of the SMS (Liquid; docs/messaging-templates.md). Other channels and locale
 * variants a saved chain has are kept as they are.
 */
export function SendFields({
  step,
  onChange,
  errors,
}: {
  readonly step: SendStep;
  readonly onChange: (step: SendStep) => void;
  /** Refusals by their path below the templates ("email.html", ""). */
  readonly errors: Readonly<Record<string, string>>;
}) {
  const { t } = useI18n();
  const templates = step.templates;
  const set = (next: MailingTemplates) => onChange({ ...step, templates: next });
  const email: Email | undefined = templates.email;
  const sms: Sms | undefined = templates.sms;
  const withEmail = (value: Email | undefined) => {
    const { email: _old, ...rest } = templates;
    set(value === undefined ? rest : { ...rest, email: value });
  };
  const withSms = (value: Sms | undefined) => {
    const { sms: _old, ...rest } = templates;
    set(value === undefined ? rest : { ...rest, sms: value });
  };
  const under = (prefix: string) =>
    Object.entries(errors)
      .filter(([path]) => path === prefix || path.startsWith(`${prefix}.`))
      .map(([, message]) => message)[0];
  return (
    <Stack gap="xs">
      {errors[''] && (
        <Text size="sm" c="red.8" role="alert">
          {errors['']}
        </Text>
      )}
      <Checkbox
        label={t('chains.send.email')}
        checked={email !== undefined}
        onChange={(e) => withEmail(e.currentTarget.checked ? { subject: '', html: '' } : undefined)}
      />
      {email && (
        <Stack gap="xs" pl="lg">
          <TextInput
            label={t('chains.send.subject')}
            maxLength={2000}
            value={email.subject}
            onChange={(e) => withEmail({ ...email, subject: e.currentTarget.value })}
            error={under('email.subject')}
          />
          <Textarea
            label={t('chains.send.html')}
            description={t('chains.send.liquid')}
            autosize
            minRows={4}
            value={email.html}
            onChange={(e) => withEmail({ ...email, html: e.currentTarget.value })}
            error={under('email.html') ?? under('email.text') ?? under('email')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </Stack>
      )}
      <Checkbox
        label={t('chains.send.sms')}
        checked={sms !== undefined}
        onChange={(e) => withSms(e.currentTarget.checked ? { body: '' } : undefined)}
      />
      {sms && (
        <Textarea
          pl="lg"
          label={t('chains.send.smsBody')}
          description={t('chains.send.liquid')}
          autosize
          minRows={2}
          maxLength={5000}
          value={sms.body}
          onChange={(e) => withSms({ body: e.currentTarget.value })}
          error={under('sms')}
        />
      )}
      {Object.entries(errors)
        .filter(([path]) => path !== '' && !/^(email|sms)(\.|$)/.test(path))
        .map(([path, message]) => (
          <Text key={path} size="sm" c="red.8" role="alert">
            {message}
          </Text>
        ))}
    </Stack>
  );
}
