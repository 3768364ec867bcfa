import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { addLocale, localeProblem, removeLocale, type MailingTemplates, type Variant } from './templates';

/** The locale variant edited: the default or a locale's, with adding and removing a locale. */
export function VariantBar({
  value,
  onChange,
  variant,
  setVariant,
  locales,
  readOnly,
}: {
  readonly value: MailingTemplates;
  readonly onChange: (next: MailingTemplates) => void;
  readonly variant: Variant;
  readonly setVariant: (v: Variant) => void;
  readonly locales: readonly string[];
  readonly readOnly: boolean;
}) {
  const { t } = useI18n();
  const [tag, setTag] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const trimmed = tag.trim();
    const why = localeProblem(value, trimmed);
    if (why !== null) {
      setProblem(t(`templates.locale.${why}` as MessageKey, { tag: trimmed }));
      return;
    }
    onChange(addLocale(value, trimmed));
    setVariant(trimmed);
    setTag('');
    setProblem(null);
  };
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label={t('templates.locale.label')}
        data={[{ value: '', label: t('templates.locale.default') }, ...locales.map((l) => ({ value: l, label: l }))]}
        value={variant ?? ''}
        onChange={(v) => setVariant(v === '' || v === null ? null : v)}
        allowDeselect={false}
        w={200}
      />
      {variant !== null && !readOnly && (
        <Button
          variant="subtle"
          color="red"
          onClick={() => {
            if (window.confirm(t('templates.locale.removeConfirm', { tag: variant }))) {
              onChange(removeLocale(value, variant));
              setVariant(null);
            }
          }}
        >
          {t('templates.locale.remove', { tag: variant })}
        </Button>
      )}
      {!readOnly && (
        <Group align="flex-start" gap="xs">
          <TextInput
            label={t('templates.locale.new')}
            description={t('templates.locale.newHint')}
            value={tag}
            onChange={(e) => {
              setTag(e.currentTarget.value);
              setProblem(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            error={problem}
            w={200}
          />
          <Button variant="default" mt={46} onClick={add} disabled={tag.trim() === ''}>
            {t('templates.locale.add')}
          </Button>
        </Group>
      )}
      {variant !== null && (
        <Text size="sm" c="gray.7" w="100%">
          {t('templates.locale.variantHint', { tag: variant })}
        </Text>
      )}
    </Group>
  );
}
