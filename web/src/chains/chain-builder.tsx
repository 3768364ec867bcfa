import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useSegments } from '../customers/customers.queries';
import { useI18n } from '../i18n/i18n';
import { templateErrorsOf, TemplatesEditor, type FieldError } from '../templates/templates-editor';
import { describeFailure } from '../ui/states';
import {
  chainBody,
  draftOf,
  emptyStep,
  fieldOfChainError,
  moveStep,
  removeStep,
  replaceStep,
  validateDraft,
  withinStep,
  type ChainDraft,
  type StepDraft,
  type StepKind,
} from './chain-draft';
import { useSaveChain, type StepStats } from './chains.queries';
import { ConditionFields, DurationInput, WaitFields } from './step-fields';
import { TriggerFields } from './trigger-fields';
import { StepStatsLine } from './step-stats';

const STEP_KINDS: readonly StepKind[] = ['wait', 'if', 'send', 'exit'];

/**
 * The chain builder: its settings, the trigger, then the steps as a vertical flow that can be
 * edited, moved up and down, added and removed. The draft is checked here as the server
 * would check it before it is sent; what is wrong, found here or refused by the server
 * (`steps[3].wait.seconds`), shows at that step's control.
 */
export function ChainBuilder({
  shopId,
  initial,
  isNew,
  stats,
}: {
  readonly shopId: string;
  readonly initial: ChainDraft;
  readonly isNew: boolean;
  /** The saved version's statistics per step, by its index in that version. */
  readonly stats?: readonly StepStats[] | undefined;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const can = usePermissions();
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<Record<string, string> | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSaveChain(shopId);
  const segments = useSegments(shopId);
  const segmentOptions = (segments.data?.segments ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (#${s.id})` }));

  // What is wrong, by field: the checks of this page, else the server's refusal.
  const serverField = save.error instanceof ApiError && save.error.status === 422 ? fieldOfChainError(save.error.message) : undefined;
  const errors: Record<string, string> =
    problems ?? (serverField !== undefined && save.error instanceof Error ? { [serverField]: save.error.message } : {});
  const known = (field: string) =>
    ['code', 'name', 'trigger', 'steps', 'reentry', 'reentry_period_seconds', 'status'].includes(field) || /^steps\[\d+\]/.test(field);
  const formFailure =
    save.error &&
    (serverField === undefined || !known(serverField) || Number(/^steps\[(\d+)\]/.exec(serverField)?.[1]) >= draft.steps.length)
      ? describeFailure(save.error, t)
      : undefined;
  const problemCount = problems ? Object.keys(problems).length : 0;

  const change = (next: ChainDraft) => {
    setDraft(next);
    setSaved(false);
  };
  const setStep = (index: number, step: StepDraft) => change({ ...draft, steps: replaceStep(draft.steps, index, step) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const found = validateDraft(draft, isNew);
    if (found.length > 0) {
      const byField: Record<string, string> = {};
      for (const p of found) byField[p.field] ??= t(p.key, p.values);
      setProblems(byField);
      return;
    }
    setProblems(null);
    const code = draft.code.trim();
    save.mutate(
      { code, body: chainBody(draft) },
      {
        onSuccess: (chain) => {
          if (isNew) {
            void navigate(`/shops/${shopId}/chains/${encodeURIComponent(code)}`);
            return;
          }
          // The new version's steps, so each step's counts are read by its place in that version.
          setDraft(draftOf(chain));
          setSaved(true);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('chains.builder')}>
      <fieldset disabled={!can.write} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        <Stack gap="md">
          {!can.write && <Alert color="gray">{t('people.readOnlyRole')}</Alert>}
          <Paper withBorder p="md">
            <Stack gap="sm" maw={640}>
              <Title order={2} size="h4">
                {t('chains.settings')}
              </Title>
              {isNew && (
                <TextInput
                  label={t('chains.code')}
                  description={t('chains.codeHint')}
                  required
                  maxLength={255}
                  value={draft.code}
                  onChange={(e) => change({ ...draft, code: e.currentTarget.value })}
                  error={errors.code}
                />
              )}
              <TextInput
                label={t('chains.name')}
                maxLength={255}
                value={draft.name}
                onChange={(e) => change({ ...draft, name: e.currentTarget.value })}
                error={errors.name}
              />
              <Select
                label={t('chains.status')}
                description={t('chains.statusHint')}
                data={[
                  { value: 'active', label: t('chains.status.active') },
                  { value: 'paused', label: t('chains.status.paused') },
                ]}
                value={draft.status}
                onChange={(v) => v && change({ ...draft, status: v })}
                allowDeselect={false}
                error={errors.status}
              />
              <Select
                label={t('chains.reentry')}
                data={(['always', 'once', 'once_per_period'] as const).map((r) => ({ value: r, label: t(`chains.reentry.${r}`) }))}
                value={draft.reentry}
                onChange={(v) => v && change({ ...draft, reentry: v })}
                allowDeselect={false}
                error={errors.reentry}
              />
              {draft.reentry === 'once_per_period' && (
                <DurationInput
                  label={t('chains.period')}
                  value={draft.period}
                  onChange={(period) => change({ ...draft, period })}
                  error={errors.reentry_period_seconds}
                />
              )}
            </Stack>
          </Paper>

          <TriggerFields
            shopId={shopId}
            trigger={draft.trigger}
            onChange={(trigger) => change({ ...draft, trigger })}
            error={errors.trigger}
            segments={segmentOptions}
          />

          <Title order={2} size="h4">
            {t('chains.steps')}
          </Title>
          {errors.steps && (
            <Text c="red.8" role="alert">
              {errors.steps}
            </Text>
          )}
          <Stack component="ol" gap={0} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {draft.steps.map((step, index) => (
              <li key={step.key}>
                {index > 0 && (
                  <Text ta="center" c="dimmed" aria-hidden="true" py={2}>
                    ↓
                  </Text>
                )}
                <StepCard
                  shopId={shopId}
                  saveError={problems ? null : save.error}
                  step={step}
                  index={index}
                  count={draft.steps.length}
                  errors={errors}
                  segments={segmentOptions}
                  stats={step.savedIndex === null ? undefined : stats?.[step.savedIndex]}
                  onChange={(s) => setStep(index, s)}
                  onMove={(to) => change({ ...draft, steps: moveStep(draft.steps, index, to) })}
                  onRemove={() => change({ ...draft, steps: removeStep(draft.steps, index) })}
                  canWrite={can.write}
                />
              </li>
            ))}
          </Stack>
          {can.write && (
            <Group gap="xs">
              {STEP_KINDS.map((kind) => (
                <Button
                  key={kind}
                  variant="default"
                  size="xs"
                  onClick={() => change({ ...draft, steps: [...draft.steps, emptyStep(kind)] })}
                >
                  {t(`chains.add.${kind}`)}
                </Button>
              ))}
            </Group>
          )}
          {problemCount > 0 && (
            <Alert color="red" role="alert">
              {t('chains.problems', { count: problemCount })}
            </Alert>
          )}
          {formFailure && (
            <Alert color="red" role="alert">
              {formFailure}
            </Alert>
          )}
          {saved && save.data && (
            <Alert color="green" role="status">
              {t('chains.saved', { version: save.data.version })}
            </Alert>
          )}
          {can.write && (
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('chains.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}

function StepCard({
  shopId,
  saveError,
  step,
  index,
  count,
  errors,
  segments,
  stats,
  onChange,
  onMove,
  onRemove,
  canWrite,
}: {
  readonly shopId: string;
  readonly saveError: unknown;
  readonly step: StepDraft;
  readonly index: number;
  readonly count: number;
  readonly errors: Readonly<Record<string, string>>;
  readonly segments: readonly { readonly value: string; readonly label: string }[];
  readonly stats: StepStats | undefined;
  readonly onChange: (step: StepDraft) => void;
  readonly onMove: (to: number) => void;
  readonly onRemove: () => void;
  readonly canWrite: boolean;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const title = t('chains.stepTitle', { number: index + 1, kind: t(`chains.kind.${step.kind}`) });
  // The refusals of this step by their path below it ("" the step itself, ".wait.seconds").
  const mine: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const rest = withinStep(field, index);
    if (rest !== undefined) mine[rest] = message;
  }
  const first = Object.values(mine)[0];
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={headingId}
      style={first ? { borderColor: 'var(--mantine-color-red-7)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h5" id={headingId}>
            {title}
          </Title>
          {canWrite && (
            <Group gap={4}>
              <Button
                size="compact-xs"
                variant="default"
                disabled={index === 0}
                onClick={() => onMove(index - 1)}
                aria-label={t('chains.moveUp', { number: index + 1 })}
              >
                {t('chains.up')}
              </Button>
              <Button
                size="compact-xs"
                variant="default"
                disabled={index === count - 1}
                onClick={() => onMove(index + 1)}
                aria-label={t('chains.moveDown', { number: index + 1 })}
              >
                {t('chains.down')}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={onRemove}
                aria-label={t('chains.remove', { number: index + 1 })}
              >
                {t('chains.removeShort')}
              </Button>
            </Group>
          )}
        </Group>
        {step.kind === 'wait' && <WaitFields step={step} onChange={(s) => onChange({ ...step, ...s })} error={first} />}
        {step.kind === 'if' && (
          <ConditionFields step={step} onChange={(s) => onChange({ ...step, ...s })} error={first} segments={segments} />
        )}
        {step.kind === 'send' && (
          <>
            {mine[''] !== undefined && (
              <Text size="sm" c="red.8" role="alert">
                {mine['']}
              </Text>
            )}
            {mine['.send'] !== undefined && (
              <Text size="sm" c="red.8" role="alert">
                {mine['.send']}
              </Text>
            )}
            <TemplatesEditor
              shopId={shopId}
              value={step.templates}
              onChange={(templates) => onChange({ ...step, templates })}
              errors={sendErrors(mine, saveError, index)}
            />
          </>
        )}
        {step.kind === 'exit' && (
          <>
            <Text size="sm">{t('chains.exitHint')}</Text>
            {first && (
              <Text size="sm" c="red.8" role="alert">
                {first}
              </Text>
            )}
          </>
        )}
        {stats && <StepStatsLine stats={stats} />}
      </Stack>
    </Paper>
  );
}

/**
 * A send step's errors for the template editor, by their path below the templates
 * (`email.html`): the server's refusal of a template (with its line), and what this page
 * found below `.send.`.
 */
function sendErrors(mine: Readonly<Record<string, string>>, saveError: unknown, index: number): FieldError[] {
  const fromServer = templateErrorsOf(saveError, `steps[${index}].send.`);
  const local = Object.entries(mine)
    .filter(([path]) => path.startsWith('.send.') && !fromServer.some((e) => `.send.${e.name}` === path))
    .map(([path, message]) => ({ name: path.slice('.send.'.length), message }));
  return [...fromServer, ...local];
}
