import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import {
  changeList,
  conditionRule,
  CONDITIONS,
  moved,
  ownProblems,
  RECOMMENDERS,
  recommenderRule,
  type Condition,
  type RuleDraft,
} from './rules-draft';

/** Rules nest at most this deep (the server's MAX_RULE_DEPTH): no "Add condition" below it. */
const MAX_DEPTH = 5;
/** Rules a list holds at most (the server's MAX_RULES_PER_LEVEL). */
const MAX_PER_LIST = 20;

interface EditorProps {
  readonly rules: readonly RuleDraft[];
  readonly onChange: (rules: RuleDraft[]) => void;
  /** The server's 422 by the path each problem names (rules-draft.ts problemsOf). */
  readonly problems: ReadonlyMap<string, string>;
  readonly readOnly: boolean;
}

/**
 * A block's rules as a structured editor: each rule a recommender or a condition with its
 * `then` and optional `else` rules, added, removed and moved up and down, each picked from a
 * list. A problem the server names (`rules[0].then[1].recommender`) is shown at that rule.
 */
export function RulesEditor(props: EditorProps) {
  const top = props.problems.get('rules');
  return (
    <Stack gap="sm">
      {top && (
        <Alert color="red" role="alert">
          {top}
        </Alert>
      )}
      <RuleList {...props} path="rules" list={props.rules} depth={1} label="" />
    </Stack>
  );
}

function RuleList({
  rules,
  onChange,
  problems,
  readOnly,
  path,
  list,
  depth,
  label,
}: EditorProps & { readonly path: string; readonly list: readonly RuleDraft[]; readonly depth: number; readonly label: string }) {
  const { t } = useI18n();
  const change = (f: (list: readonly RuleDraft[]) => readonly RuleDraft[]) => onChange(changeList(rules, path, f));
  const full = list.length >= MAX_PER_LIST;
  return (
    <Stack gap="xs">
      {list.length === 0 && (
        <Text size="sm" c="gray.7">
          {t('recommendations.rules.none')}
        </Text>
      )}
      {list.map((rule, index) => {
        const rulePath = `${path}[${index}]`;
        const name = label === '' ? String(index + 1) : `${label}.${index + 1}`;
        const own = ownProblems(problems, rulePath);
        return (
          <Paper key={rule.key} withBorder p="sm" component="fieldset" aria-label={t('recommendations.rule.name', { n: name })}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap">
                <Text fw={600} size="sm">
                  {t('recommendations.rule.name', { n: name })}
                </Text>
                {!readOnly && (
                  <Group gap={4}>
                    <Button
                      size="xs"
                      variant="default"
                      disabled={index === 0}
                      aria-label={t('recommendations.rule.up', { n: name })}
                      onClick={() => change((l) => moved(l, index, -1))}
                    >
                      ↑
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      disabled={index === list.length - 1}
                      aria-label={t('recommendations.rule.down', { n: name })}
                      onClick={() => change((l) => moved(l, index, 1))}
                    >
                      ↓
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      aria-label={t('recommendations.rule.remove', { n: name })}
                      onClick={() => change((l) => l.filter((_, i) => i !== index))}
                    >
                      {t('recommendations.rule.removeShort')}
                    </Button>
                  </Group>
                )}
              </Group>
              {rule.kind === 'recommender' ? (
                <NativeSelect
                  label={t('recommendations.rule.recommender')}
                  value={rule.recommender}
                  disabled={readOnly}
                  error={own.join(' ') || undefined}
                  data={recommenderOptions(t, rule.recommender)}
                  onChange={(e) => {
                    const recommender = e.currentTarget.value;
                    change((l) => l.map((r, i) => (i === index ? { ...rule, recommender } : r)));
                  }}
                />
              ) : (
                <ConditionFields
                  rule={rule}
                  errors={own}
                  readOnly={readOnly}
                  onChange={(next) => change((l) => l.map((r, i) => (i === index ? next : r)))}
                />
              )}
              {rule.kind === 'if' && (
                <Stack gap="xs" pl="md" style={{ borderInlineStart: '3px solid var(--mantine-color-gray-3)' }}>
                  <Text size="sm" fw={600}>
                    {t('recommendations.rule.then')}
                  </Text>
                  <RuleList
                    {...{ rules, onChange, problems, readOnly }}
                    path={`${rulePath}.then`}
                    list={rule.then}
                    depth={depth + 1}
                    label={`${name}.${t('recommendations.rule.thenShort')}`}
                  />
                  {rule.otherwise === null ? (
                    !readOnly && (
                      <Group>
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => change((l) => l.map((r, i) => (i === index ? { ...rule, otherwise: [recommenderRule()] } : r)))}
                        >
                          {t('recommendations.rule.addElse', { n: name })}
                        </Button>
                      </Group>
                    )
                  ) : (
                    <>
                      <Group justify="space-between">
                        <Text size="sm" fw={600}>
                          {t('recommendations.rule.else')}
                        </Text>
                        {!readOnly && (
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            onClick={() => change((l) => l.map((r, i) => (i === index ? { ...rule, otherwise: null } : r)))}
                          >
                            {t('recommendations.rule.removeElse', { n: name })}
                          </Button>
                        )}
                      </Group>
                      <RuleList
                        {...{ rules, onChange, problems, readOnly }}
                        path={`${rulePath}.else`}
                        list={rule.otherwise}
                        depth={depth + 1}
                        label={`${name}.${t('recommendations.rule.elseShort')}`}
                      />
                    </>
                  )}
                </Stack>
              )}
            </Stack>
          </Paper>
        );
      })}
      {!readOnly && (
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={full} onClick={() => change((l) => [...l, recommenderRule()])}>
            {label === '' ? t('recommendations.rules.addRecommender') : t('recommendations.rules.addRecommenderIn', { n: label })}
          </Button>
          <Button size="xs" variant="default" disabled={full || depth >= MAX_DEPTH} onClick={() => change((l) => [...l, conditionRule()])}>
            {label === '' ? t('recommendations.rules.addCondition') : t('recommendations.rules.addConditionIn', { n: label })}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ConditionFields({
  rule,
  errors,
  readOnly,
  onChange,
}: {
  readonly rule: Extract<RuleDraft, { kind: 'if' }>;
  readonly errors: readonly string[];
  readonly readOnly: boolean;
  readonly onChange: (rule: RuleDraft) => void;
}) {
  const { t } = useI18n();
  const categoryErrors = errors.filter((e) => e.includes('.item_in_category`'));
  const otherErrors = errors.filter((e) => !categoryErrors.includes(e));
  return (
    <Group align="flex-start" grow>
      <NativeSelect
        label={t('recommendations.rule.condition')}
        value={rule.condition}
        disabled={readOnly}
        error={otherErrors.join(' ') || undefined}
        data={CONDITIONS.map((c) => ({ value: c, label: t(`recommendations.condition.${c}` as MessageKey) }))}
        onChange={(e) => onChange({ ...rule, condition: e.currentTarget.value as Condition })}
      />
      {rule.condition === 'item_in_category' && (
        <TextInput
          label={t('recommendations.rule.category')}
          value={rule.category}
          maxLength={255}
          disabled={readOnly}
          error={categoryErrors.join(' ') || undefined}
          onChange={(e) => onChange({ ...rule, category: e.currentTarget.value })}
        />
      )}
    </Group>
  );
}

function recommenderOptions(t: (key: MessageKey) => string, current: string) {
  const options: { value: string; label: string }[] = RECOMMENDERS.map((r) => ({
    value: r,
    label: t(`recommendations.recommender.${r}` as MessageKey),
  }));
  // A recommender this version has no name for stays shown as it is, so that a save keeps it.
  if (!(RECOMMENDERS as readonly string[]).includes(current)) options.unshift({ value: current, label: current });
  return options;
}
