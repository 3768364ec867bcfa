import { Alert, Button, Group, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { useSaveBlock, type Block } from './recommendations.queries';
import { draftOf, problemsOf, recommenderRule, rulesOf, type RuleDraft } from './rules-draft';
import { RulesEditor } from './rules-editor';

const FIELDS = ['code', 'name', 'title', 'limit'] as const;

/**
 * A block's fields and rules, saved whole with one PUT (admin-api.md "Recommendation
 * blocks"). Without `block` it makes a new one and asks for its code. The server's 422 is
 * shown at the field it names, a rule's at that rule.
 */
export function BlockForm({
  shopId,
  block,
  readOnly,
  onSaved,
}: {
  readonly shopId: string;
  readonly block?: Block;
  readonly readOnly: boolean;
  readonly onSaved?: (block: Block) => void;
}) {
  const { t } = useI18n();
  const save = useSaveBlock(shopId);
  const [code, setCode] = useState('');
  const [name, setName] = useState(block?.name ?? '');
  const [title, setTitle] = useState(block?.title ?? '');
  const [limit, setLimit] = useState<number | string>(block?.limit ?? 10);
  const [rules, setRules] = useState<RuleDraft[]>(() => (block ? draftOf(block.rules) : [recommenderRule('popular')]));
  const [saved, setSaved] = useState(false);
  const [codeMissing, setCodeMissing] = useState(false);

  const failure = formFailure(save.error, FIELDS, t);
  const ruleRefusal = save.error instanceof ApiError && save.error.status === 422 && failure.field === undefined;
  const problems = ruleRefusal ? problemsOf((save.error as ApiError).message) : new Map<string, string>();
  const formMessage = ruleRefusal && problems.size > 0 ? undefined : failure.form;
  const at = (field: (typeof FIELDS)[number]) => {
    if (field === 'code' && codeMissing) return t('recommendations.form.codeMissing');
    return failure.field?.name === field ? failure.field.message : undefined;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    // An empty code would be another address (the list); said here instead.
    setCodeMissing(!block && code.trim() === '');
    if (!block && code.trim() === '') return;
    const body = {
      name: name.trim() === '' ? null : name.trim(),
      title,
      limit: typeof limit === 'number' ? limit : Number(limit),
      rules: rulesOf(rules),
    };
    save.mutate(
      { code: block?.code ?? code.trim(), body },
      {
        onSuccess: (result) => {
          setSaved(true);
          onSaved?.(result);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={block ? t('recommendations.form.editLabel') : t('recommendations.form.newLabel')}>
      <Stack gap="md">
        {formMessage && (
          <Alert color="red" role="alert">
            {formMessage}
          </Alert>
        )}
        {saved && !save.isPending && !save.isError && (
          <Alert color="green" role="status">
            {t('recommendations.form.saved')}
          </Alert>
        )}
        {!block && (
          <TextInput
            label={t('recommendations.form.code')}
            description={t('recommendations.form.codeHint')}
            required
            maxLength={64}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={at('code')}
            ff="monospace"
          />
        )}
        <TextInput
          label={t('recommendations.form.title')}
          description={t('recommendations.form.titleHint')}
          required
          maxLength={255}
          value={title}
          disabled={readOnly}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={at('title')}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('recommendations.form.name')}
            description={t('recommendations.form.nameHint')}
            maxLength={255}
            value={name}
            disabled={readOnly}
            onChange={(e) => setName(e.currentTarget.value)}
            error={at('name')}
          />
          <NumberInput
            label={t('recommendations.form.limit')}
            description={t('recommendations.form.limitHint')}
            min={1}
            max={100}
            allowDecimal={false}
            value={limit}
            disabled={readOnly}
            onChange={setLimit}
            error={at('limit')}
          />
        </Group>
        <Title order={3} size="h5">
          {t('recommendations.rules.title')}
        </Title>
        <RulesEditor rules={rules} onChange={setRules} problems={problems} readOnly={readOnly} />
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {block ? t('recommendations.form.save') : t('recommendations.form.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
