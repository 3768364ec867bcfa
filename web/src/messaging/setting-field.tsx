import { Checkbox, PasswordInput, Select, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { FieldSpec } from './settings-form';

/**
 * One setting of a vendor, drawn by its kind. A secret's input starts empty and says whether
 * one is stored ("set"/"not set"; a URL's masked form, which shows its host, beside it).
 */
export function SettingField({
  field,
  value,
  secretState,
  storedMask,
  error,
  readOnly,
  onChange,
}: {
  readonly field: FieldSpec;
  readonly value: string | boolean;
  readonly secretState: 'set' | 'not_set' | undefined;
  readonly storedMask: unknown;
  readonly error: string | undefined;
  readonly readOnly: boolean;
  readonly onChange: (value: string | boolean) => void;
}) {
  const { t } = useI18n();
  const label = field.name;
  if (field.kind === 'boolean') {
    return (
      <Checkbox
        label={label}
        description={field.description}
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
        error={error}
        disabled={readOnly}
      />
    );
  }
  const text = typeof value === 'string' ? value : '';
  if (field.secret) {
    const set = secretState === 'set' || (secretState === undefined && storedMask !== undefined);
    const mask = typeof storedMask === 'string' && storedMask !== '****' ? t('messaging.settings.stored', { value: storedMask }) : '';
    const description = [set ? t('messaging.settings.secretSet') : t('messaging.settings.secretNotSet'), mask, field.description ?? '']
      .filter((s) => s !== '')
      .join(' ');
    const props = {
      label,
      description,
      value: text,
      error,
      required: field.required && !set,
      readOnly,
      autoComplete: 'off',
      onChange: (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value),
    };
    return field.kind === 'json' || field.kind === 'long-text' ? (
      <Textarea {...props} autosize minRows={2} />
    ) : (
      <PasswordInput {...props} />
    );
  }
  if (field.kind === 'choice') {
    return (
      <Select
        label={label}
        description={field.description}
        data={[...field.choices]}
        value={text === '' ? null : text}
        onChange={(v) => onChange(v ?? '')}
        clearable={!field.required}
        error={error}
        required={field.required}
        readOnly={readOnly}
      />
    );
  }
  if (field.kind === 'json' || field.kind === 'long-text') {
    return (
      <Textarea
        label={label}
        description={[field.description ?? '', field.kind === 'json' ? t('messaging.settings.jsonHint') : ''].filter((s) => s).join(' ')}
        value={text}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        required={field.required}
        readOnly={readOnly}
        autosize
        minRows={2}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
    );
  }
  return (
    <TextInput
      label={label}
      description={field.description}
      value={text}
      inputMode={field.kind === 'number' ? 'numeric' : undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      required={field.required}
      readOnly={readOnly}
    />
  );
}
