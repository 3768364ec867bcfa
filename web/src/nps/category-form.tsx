import { Alert, Button, Group, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { useSaveCategory, type Category } from './nps.queries';

const TEXTS = [
  'detractor_question',
  'passive_question',
  'promoter_question',
  'detractor_success',
  'passive_success',
  'promoter_success',
] as const;
type TextField = (typeof TEXTS)[number];
const FIELDS = ['code', 'name', ...TEXTS] as const;

const LABELS: Readonly<Record<TextField, MessageKey>> = {
  detractor_question: 'nps.categories.detractorQuestion',
  passive_question: 'nps.categories.passiveQuestion',
  promoter_question: 'nps.categories.promoterQuestion',
  detractor_success: 'nps.categories.detractorSuccess',
  passive_success: 'nps.categories.passiveSuccess',
  promoter_success: 'nps.categories.promoterSuccess',
};

/**
 * A category saved whole with one PUT: its name, and for each group of ratings the
 * question the app asks and the thank-you text it shows. Without `category` it adds one.
 */
export function CategoryForm({
  shopId,
  category,
  onDone,
}: {
  readonly shopId: string;
  readonly category: Category | null;
  readonly onDone: () => void;
}) {
  const { t } = useI18n();
  const save = useSaveCategory(shopId);
  const [code, setCode] = useState(category?.code ?? '');
  const [name, setName] = useState(category?.name ?? '');
  const [texts, setTexts] = useState<Record<TextField, string>>(
    () => Object.fromEntries(TEXTS.map((f) => [f, category?.[f] ?? ''])) as Record<TextField, string>,
  );
  const [saved, setSaved] = useState(false);
  const failure = formFailure(save.error, FIELDS, t);
  const at = (field: (typeof FIELDS)[number]) => (failure.field?.name === field ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body = { name, ...Object.fromEntries(TEXTS.map((f) => [f, texts[f].trim() === '' ? null : texts[f]])) };
    save.mutate(
      { code: code.trim(), body },
      {
        onSuccess: () => {
          setSaved(true);
          if (category === null) {
            setCode('');
            setName('');
            setTexts(Object.fromEntries(TEXTS.map((f) => [f, ''])) as Record<TextField, string>);
          } else onDone();
        },
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={category ? t('nps.categories.editForm', { code: category.code }) : t('nps.categories.newForm')}
    >
      <Stack gap="sm">
        <Title order={3} size="h5">
          {category ? t('nps.categories.editForm', { code: category.code }) : t('nps.categories.newForm')}
        </Title>
        {failure.form && (
          <Alert color="red" role="alert">
            {failure.form}
          </Alert>
        )}
        {saved && !save.isPending && !save.isError && (
          <Alert color="green" role="status">
            {t('nps.categories.saved')}
          </Alert>
        )}
        <Group align="flex-start" grow>
          <TextInput
            label={t('nps.categories.code')}
            description={t('nps.categories.codeHint')}
            required
            maxLength={64}
            value={code}
            disabled={category !== null}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={at('code')}
            ff="monospace"
          />
          <TextInput
            label={t('nps.categories.name')}
            required
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={at('name')}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {TEXTS.map((field) => (
            <Textarea
              key={field}
              label={t(LABELS[field])}
              maxLength={1000}
              autosize
              minRows={2}
              value={texts[field]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setTexts((all) => ({ ...all, [field]: value }));
              }}
              error={at(field)}
            />
          ))}
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={code.trim() === ''}>
            {category ? t('nps.categories.save') : t('nps.categories.add')}
          </Button>
          {category && (
            <Button variant="default" onClick={onDone}>
              {t('nps.categories.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
