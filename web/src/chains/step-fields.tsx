import { Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import { UNITS, type Duration, type IfStep, type WaitStep, CONDITION_KINDS } from './chain-draft';

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
