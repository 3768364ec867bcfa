import { fieldOfMessage } from '../api/client';
import type { MessageKey } from '../i18n/en';
import type { ChainBody, MailingTemplates, PutChainBody } from './chains.queries';

/**
 * The chain builder's draft: what the user is typing, as the builder's controls hold it, and
 * its conversions from and to the admin API's chain (docs/chains.md). The API spells the
 * trigger and the steps as small JSON objects (`{"wait": {"seconds": 3600}}`); the builder
 * edits them as flat records (an amount and a unit, a condition's kind and its value) so a
 * step can change kind or unit without losing what was typed.
 *
 * `validateDraft` mirrors the server's checks when a chain is saved
 * (src/modules/chains/domain/definition.ts) and names each problem by the path the server
 * would name it with (`steps[3].wait.seconds`), so a problem found here and a refusal of the
 * server show at the same control.
 */

export const MAX_STEPS = 50;
/** 366 days, the longest wait and re-entry period. */
export const MAX_WAIT_SECONDS = 366 * 24 * 60 * 60;
export const MIN_PERIOD_SECONDS = 60 * 60;
const NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
const EVENT_PATTERN = /^[a-z0-9_]{1,64}$/;
const TIME_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export const UNITS = ['minutes', 'hours', 'days', 'seconds'] as const;
export type Unit = (typeof UNITS)[number];
const UNIT_SECONDS: Readonly<Record<Unit, number>> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };

export interface Duration {
  readonly amount: string;
  readonly unit: Unit;
}

export const TRIGGER_KINDS = ['event', 'abandoned_cart', 'abandoned_wish', 'back_in_stock', 'price_drop', 'segment_entry'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export interface TriggerDraft {
  readonly kind: TriggerKind;
  /** event: the custom event's code. */
  readonly event: string;
  /** abandoned_cart, abandoned_wish: how long the list stays unchanged. */
  readonly after: Duration;
  /** segment_entry: the segment's id, as typed. */
  readonly segmentId: string;
}

export const CONDITION_KINDS = ['variable', 'property', 'purchased', 'opened', 'clicked', 'level', 'segment'] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export interface WaitStep {
  readonly kind: 'wait';
  readonly mode: 'for' | 'until';
  readonly duration: Duration;
  /** HH:MM in the shop's time zone. */
  readonly until: string;
}
export interface IfStep {
  readonly kind: 'if';
  readonly condition: ConditionKind;
  /** variable, property: the name; level: the level's code. */
  readonly name: string;
  /** variable, property: the value compared (as text, as the server compares it). */
  readonly equals: string;
  /** purchased, opened, clicked. */
  readonly flag: boolean;
  /** segment: the segment's id, as typed. */
  readonly segmentId: string;
}
export interface SendStep {
  readonly kind: 'send';
  readonly templates: MailingTemplates;
}
export interface ExitStep {
  readonly kind: 'exit';
}
export type StepKind = 'wait' | 'if' | 'send' | 'exit';
export type StepDraft = (WaitStep | IfStep | SendStep | ExitStep) & {
  /** A key for React that stays with the step as it moves. */
  readonly key: string;
  /** The step's index in the saved version (its statistics), null for a step added since. */
  readonly savedIndex: number | null;
};

export interface ChainDraft {
  readonly code: string;
  readonly name: string;
  readonly status: 'active' | 'paused';
  readonly reentry: 'always' | 'once' | 'once_per_period';
  readonly period: Duration;
  readonly trigger: TriggerDraft;
  readonly steps: readonly StepDraft[];
}

let keys = 0;
const nextKey = () => {
  keys += 1;
  return `step-${keys}`;
};

/** Seconds as the largest whole unit (3600 → 1 hour, 90 → 90 seconds). */
export function toDuration(seconds: number): Duration {
  for (const unit of ['days', 'hours', 'minutes'] as const) {
    const size = UNIT_SECONDS[unit];
    if (seconds > 0 && seconds % size === 0) return { amount: String(seconds / size), unit };
  }
  return { amount: String(seconds), unit: 'seconds' };
}

/** A duration in seconds; null when the amount is not a whole number. */
export function durationSeconds(duration: Duration): number | null {
  const text = duration.amount.trim();
  if (!/^\d{1,12}$/.test(text)) return null;
  return Number(text) * UNIT_SECONDS[duration.unit];
}

export function emptyStep(kind: StepKind): StepDraft {
  const base = { key: nextKey(), savedIndex: null };
  switch (kind) {
    case 'wait':
      return { ...base, kind, mode: 'for', duration: { amount: '1', unit: 'days' }, until: '10:00' };
    case 'if':
      return { ...base, kind, condition: 'variable', name: '', equals: '', flag: false, segmentId: '' };
    case 'send':
      return { ...base, kind, templates: { email: { subject: '', html: '' } } };
    case 'exit':
      return { ...base, kind };
  }
}

export function newDraft(): ChainDraft {
  return {
    code: '',
    name: '',
    status: 'active',
    reentry: 'always',
    period: { amount: '1', unit: 'days' },
    trigger: { kind: 'event', event: '', after: { amount: '1', unit: 'hours' }, segmentId: '' },
    steps: [emptyStep('wait'), emptyStep('send')],
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

function triggerOf(raw: Record<string, unknown>): TriggerDraft {
  const base = newDraft().trigger;
  const kind = TRIGGER_KINDS.find((k) => k in raw) ?? 'event';
  const value = raw[kind];
  const inner = isRecord(value) ? value : {};
  return {
    ...base,
    kind,
    event: kind === 'event' ? text(value) : '',
    after: typeof inner.after_seconds === 'number' ? toDuration(inner.after_seconds) : base.after,
    segmentId: text(inner.segment_id),
  };
}

function stepOf(raw: Record<string, unknown>, index: number): StepDraft {
  const base = { key: nextKey(), savedIndex: index };
  if (isRecord(raw.wait)) {
    const wait = raw.wait;
    const empty = emptyStep('wait') as WaitStep;
    return typeof wait.until === 'string'
      ? { ...base, kind: 'wait', mode: 'until', duration: empty.duration, until: wait.until }
      : { ...base, kind: 'wait', mode: 'for', duration: toDuration(Number(wait.seconds ?? 0)), until: empty.until };
  }
  if (isRecord(raw.if)) {
    const c = raw.if;
    const condition = CONDITION_KINDS.find((k) => k in c) ?? 'variable';
    const flag = condition === 'purchased' || condition === 'opened' || condition === 'clicked' ? c[condition] === true : false;
    return {
      ...base,
      kind: 'if',
      condition,
      name: condition === 'level' ? text(c.level) : text(c[condition]),
      equals: text(c.equals),
      flag,
      segmentId: condition === 'segment' ? text(c.segment) : '',
    };
  }
  if (isRecord(raw.send)) return { ...base, kind: 'send', templates: raw.send };
  return { ...base, kind: 'exit' };
}

/** The draft of a saved chain. */
export function draftOf(chain: ChainBody): ChainDraft {
  return {
    code: chain.code,
    name: chain.name ?? '',
    status: chain.status,
    reentry: chain.reentry === 'once' || chain.reentry === 'once_per_period' ? chain.reentry : 'always',
    period: chain.reentry_period_seconds === null ? newDraft().period : toDuration(chain.reentry_period_seconds),
    trigger: triggerOf(chain.trigger),
    steps: chain.steps.map(stepOf),
  };
}

function triggerBody(trigger: TriggerDraft): PutChainBody['trigger'] {
  switch (trigger.kind) {
    case 'event':
      return { event: trigger.event.trim() };
    case 'abandoned_cart':
    case 'abandoned_wish':
      return { [trigger.kind]: { after_seconds: durationSeconds(trigger.after) ?? -1 } };
    case 'segment_entry':
      return { segment_entry: { segment_id: Number(trigger.segmentId.trim()) } };
    default:
      return { [trigger.kind]: {} };
  }
}

function conditionBody(step: IfStep): Record<string, unknown> {
  switch (step.condition) {
    case 'variable':
    case 'property':
      return { [step.condition]: step.name.trim(), equals: step.equals };
    case 'level':
      return { level: step.name.trim() };
    case 'segment':
      return { segment: Number(step.segmentId.trim()) };
    default:
      return { [step.condition]: step.flag };
  }
}

function stepBody(step: StepDraft): PutChainBody['steps'][number] {
  switch (step.kind) {
    case 'wait':
      return step.mode === 'until' ? { wait: { until: step.until.trim() } } : { wait: { seconds: durationSeconds(step.duration) ?? -1 } };
    case 'if':
      return { if: conditionBody(step), else: 'exit' };
    case 'send':
      return { send: step.templates };
    case 'exit':
      return { exit: {} };
  }
}

/** The PUT body of a draft (check it with validateDraft first). */
export function chainBody(draft: ChainDraft): PutChainBody {
  return {
    name: draft.name.trim() === '' ? null : draft.name.trim(),
    status: draft.status,
    trigger: triggerBody(draft.trigger),
    reentry: draft.reentry,
    ...(draft.reentry === 'once_per_period' && { reentry_period_seconds: durationSeconds(draft.period) ?? -1 }),
    steps: draft.steps.map(stepBody),
  };
}

/** A problem of the draft at the path the server would name (`steps[2].wait.seconds`), in words of the table. */
export interface Problem {
  readonly field: string;
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, string | number>>;
}

const positiveId = (value: string) => /^[1-9]\d{0,15}$/.test(value.trim());

function stepProblem(step: StepDraft, at: string): Problem | undefined {
  switch (step.kind) {
    case 'wait': {
      if (step.mode === 'until') {
        return TIME_PATTERN.test(step.until.trim()) ? undefined : { field: `${at}.wait.until`, key: 'chains.problem.time' };
      }
      const seconds = durationSeconds(step.duration);
      if (seconds === null) return { field: `${at}.wait.seconds`, key: 'chains.problem.amount' };
      if (seconds > MAX_WAIT_SECONDS) return { field: `${at}.wait.seconds`, key: 'chains.problem.waitTooLong' };
      return undefined;
    }
    case 'if':
      switch (step.condition) {
        case 'variable':
        case 'property':
          if (!NAME_PATTERN.test(step.name.trim())) return { field: `${at}.if.${step.condition}`, key: 'chains.problem.name' };
          if (step.equals.length > 1000) return { field: `${at}.if.equals`, key: 'chains.problem.valueTooLong' };
          return undefined;
        case 'level':
          return step.name.trim() === '' || step.name.trim().length > 64
            ? { field: `${at}.if.level`, key: 'chains.problem.level' }
            : undefined;
        case 'segment':
          return positiveId(step.segmentId) ? undefined : { field: `${at}.if.segment`, key: 'chains.problem.segment' };
        default:
          return undefined;
      }
    case 'send': {
      const channels = Object.entries(step.templates).filter(([name, value]) => name !== 'locales' && value !== undefined);
      const locales = Object.values(step.templates.locales ?? {}).some((set) => Object.values(set).some((v) => v !== undefined));
      return channels.length === 0 && !locales ? { field: `${at}.send`, key: 'chains.problem.noTemplate' } : undefined;
    }
    case 'exit':
      return undefined;
  }
}

/** Every problem of the draft the server would refuse it for (the first of each step), before it is sent. */
export function validateDraft(draft: ChainDraft, isNew: boolean): Problem[] {
  const problems: Problem[] = [];
  if (isNew && (draft.code.trim() === '' || draft.code.trim().length > 255)) problems.push({ field: 'code', key: 'chains.problem.code' });
  if (draft.name.trim().length > 255) problems.push({ field: 'name', key: 'chains.problem.nameTooLong' });
  const trigger = draft.trigger;
  if (trigger.kind === 'event' && !EVENT_PATTERN.test(trigger.event.trim())) {
    problems.push({ field: 'trigger', key: 'chains.problem.event' });
  } else if (trigger.kind === 'abandoned_cart' || trigger.kind === 'abandoned_wish') {
    const seconds = durationSeconds(trigger.after);
    if (seconds === null) problems.push({ field: 'trigger', key: 'chains.problem.amount' });
    else if (seconds > MAX_WAIT_SECONDS) problems.push({ field: 'trigger', key: 'chains.problem.waitTooLong' });
  } else if (trigger.kind === 'segment_entry' && !positiveId(trigger.segmentId)) {
    problems.push({ field: 'trigger', key: 'chains.problem.segment' });
  }
  if (draft.steps.length === 0) problems.push({ field: 'steps', key: 'chains.problem.noSteps' });
  if (draft.steps.length > MAX_STEPS) problems.push({ field: 'steps', key: 'chains.problem.tooManySteps', values: { max: MAX_STEPS } });
  draft.steps.forEach((step, index) => {
    const problem = stepProblem(step, `steps[${index}]`);
    if (problem) problems.push(problem);
  });
  if (draft.reentry === 'once_per_period') {
    const seconds = durationSeconds(draft.period);
    if (seconds === null || seconds < MIN_PERIOD_SECONDS || seconds > MAX_WAIT_SECONDS) {
      problems.push({ field: 'reentry_period_seconds', key: 'chains.problem.period' });
    }
  }
  return problems;
}

/**
 * The field a refusal of the chain's save names. The chain module words its refusals
 * "Step 3: `steps[3].wait.seconds` is at most …" and "Template steps[2].send.email.html
 * does not parse …"; the trigger's and the re-entry's have their own openings
 * (src/modules/chains/domain/definition.ts, chains.service.ts).
 */
export function fieldOfChainError(message: string): string | undefined {
  const step = /^Step \d+: `([^`]+)`/.exec(message);
  if (step) return step[1];
  const template = /^Template (steps\[\d+\]\.send\.\S+) does not parse/.exec(message);
  if (template) return template[1];
  if (/^(Trigger |Field `trigger`|Segment \d+ does not exist)/.test(message)) return 'trigger';
  if (/^A chain (needs at least one step|has at most)|^Field `steps`/.test(message)) return 'steps';
  if (/^once_per_period needs/.test(message)) return 'reentry_period_seconds';
  return fieldOfMessage(message);
}

/** The part of a field below step `index` ("" for the step itself, ".wait.seconds"), or undefined when the field is not the step's. */
export function withinStep(field: string, index: number): string | undefined {
  const head = `steps[${index}]`;
  if (field === head) return '';
  return field.startsWith(`${head}.`) ? field.slice(head.length) : undefined;
}

export function moveStep(steps: readonly StepDraft[], from: number, to: number): StepDraft[] {
  const next = [...steps];
  if (to < 0 || to >= next.length || from < 0 || from >= next.length) return next;
  const [step] = next.splice(from, 1);
  if (step) next.splice(to, 0, step);
  return next;
}

export function removeStep(steps: readonly StepDraft[], index: number): StepDraft[] {
  return steps.filter((_, i) => i !== index);
}

export function replaceStep(steps: readonly StepDraft[], index: number, step: StepDraft): StepDraft[] {
  return steps.map((s, i) => (i === index ? step : s));
}
