import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { MailingTemplatesSchema, mailingChannels, type MailingTemplates } from '../../messaging/index.js';
import type { ChainTrigger } from '../chain-starter.js';

/**
 * A chain as the admin API spells it (admin-api.md "Chains and bulk mailings", and our
 * extensions in docs/chains.md): the shapes of its trigger and steps, and the checks a
 * chain passes when saved. Pure: no I/O; the template parse is the caller's.
 */

export const MAX_STEPS = 50;
export const MAX_WAIT_SECONDS = 366 * 24 * 60 * 60;
/** once_per_period: between an hour and 366 days. */
export const MIN_PERIOD_SECONDS = 60 * 60;
const NAME = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' });
const VALUE = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]);

const seconds = (max: number) => Type.Integer({ minimum: 0, maximum: max });
const TriggerSchemas = {
  event: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]+$' }),
  abandoned_cart: Type.Object({ after_seconds: seconds(MAX_WAIT_SECONDS) }, { additionalProperties: false }),
  abandoned_wish: Type.Object({ after_seconds: seconds(MAX_WAIT_SECONDS) }, { additionalProperties: false }),
  back_in_stock: Type.Object({}, { additionalProperties: false }),
  price_drop: Type.Object({}, { additionalProperties: false }),
  segment_entry: Type.Object({ segment_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
} as const;

/** A condition of an `if` step: the core two, then ours. */
const ConditionSchemas = {
  variable: Type.Object({ variable: NAME, equals: VALUE }, { additionalProperties: false }),
  purchased: Type.Object({ purchased: Type.Boolean() }, { additionalProperties: false }),
  property: Type.Object({ property: NAME, equals: VALUE }, { additionalProperties: false }),
  level: Type.Object({ level: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  segment: Type.Object({ segment: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  opened: Type.Object({ opened: Type.Boolean() }, { additionalProperties: false }),
  clicked: Type.Object({ clicked: Type.Boolean() }, { additionalProperties: false }),
} as const;
export const ConditionSchema = Type.Union(Object.values(ConditionSchemas));
export type Condition = Static<typeof ConditionSchema>;

const StepSchemas = {
  wait: Type.Object(
    {
      wait: Type.Union([
        Type.Object({ seconds: seconds(MAX_WAIT_SECONDS) }, { additionalProperties: false }),
        Type.Object({ until: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }) }, { additionalProperties: false }),
      ]),
    },
    { additionalProperties: false },
  ),
  if: Type.Object({ if: ConditionSchema, else: Type.Literal('exit') }, { additionalProperties: false }),
  send: Type.Object({ send: MailingTemplatesSchema }, { additionalProperties: false }),
  exit: Type.Object({ exit: Type.Object({}, { additionalProperties: false }) }, { additionalProperties: false }),
} as const;
export const StepSchema = Type.Union(Object.values(StepSchemas));
export type Step = Static<typeof StepSchema>;
export type StepKind = keyof typeof StepSchemas;

export type Reentry = 'always' | 'once' | 'once_per_period';

export interface ChainDefinition {
  readonly trigger: ChainTrigger;
  readonly steps: readonly Step[];
  readonly reentry: Reentry;
  /** once_per_period only. */
  readonly periodMs: number | null;
}

export interface DefinitionInput {
  readonly trigger: unknown;
  readonly steps: unknown;
  readonly reentry: string;
  readonly reentryPeriodSeconds?: number | undefined;
}

export type DefinitionCheck =
  | { readonly ok: true; readonly definition: ChainDefinition }
  | { readonly ok: false; readonly field: string; readonly message: string };

const fail = (field: string, message: string): DefinitionCheck => ({ ok: false, field, message });

/** Checks a chain when saved: every shape known, waits bounded, sends with templates. */
export function checkDefinition(input: DefinitionInput): DefinitionCheck {
  const trigger = parseTrigger(input.trigger);
  if (typeof trigger === 'string') return fail('trigger', trigger);
  if (!Array.isArray(input.steps)) return fail('steps', 'Field `steps` must be an array of steps.');
  if (input.steps.length === 0) return fail('steps', 'A chain needs at least one step.');
  if (input.steps.length > MAX_STEPS) return fail('steps', `A chain has at most ${MAX_STEPS} steps; this one has ${input.steps.length}.`);
  const steps: Step[] = [];
  for (const [index, raw] of (input.steps as unknown[]).entries()) {
    const problem = stepProblem(raw);
    if (problem) {
      // The builder shows a refusal at its step: the field is the step's path down to what is wrong.
      const field = `steps[${index}]${problem.at}`;
      return fail(field, `Step ${index}: \`${field}\` ${problem.message}`);
    }
    steps.push(raw as Step);
  }
  const reentry = input.reentry as Reentry;
  if (!['always', 'once', 'once_per_period'].includes(reentry)) {
    return fail('reentry', 'Field `reentry` must be one of always, once, once_per_period.');
  }
  let periodMs: number | null = null;
  if (reentry === 'once_per_period') {
    const period = input.reentryPeriodSeconds;
    if (period === undefined || !Number.isInteger(period) || period < MIN_PERIOD_SECONDS || period > MAX_WAIT_SECONDS) {
      return fail(
        'reentry_period_seconds',
        `once_per_period needs \`reentry_period_seconds\` from ${MIN_PERIOD_SECONDS} to ${MAX_WAIT_SECONDS}.`,
      );
    }
    periodMs = period * 1000;
  }
  return { ok: true, definition: { trigger, steps, reentry, periodMs } };
}

/** The trigger in module terms, or a sentence saying what is wrong. */
export function parseTrigger(raw: unknown): ChainTrigger | string {
  const shape = 'Field `trigger` must be one object of: event, abandoned_cart, abandoned_wish, back_in_stock, price_drop, segment_entry.';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return shape;
  const keys = Object.keys(raw);
  const key = keys[0] as keyof typeof TriggerSchemas | undefined;
  if (keys.length !== 1 || key === undefined || !(key in TriggerSchemas)) return shape;
  const value = (raw as Record<string, unknown>)[key];
  const problem = triggerShapeProblem(TriggerSchemas[key], value);
  if (problem) return `Trigger ${key}: ${problem}`;
  switch (key) {
    case 'event':
      return { kind: 'event', code: value as string };
    case 'abandoned_cart':
    case 'abandoned_wish':
      return { kind: key, afterSeconds: (value as { after_seconds: number }).after_seconds };
    case 'segment_entry':
      return { kind: key, segmentId: (value as { segment_id: number }).segment_id };
    default:
      return { kind: key };
  }
}

/** The trigger as the admin API spells it. */
export function triggerBody(trigger: ChainTrigger): Record<string, unknown> {
  switch (trigger.kind) {
    case 'event':
      return { event: trigger.code };
    case 'abandoned_cart':
    case 'abandoned_wish':
      return { [trigger.kind]: { after_seconds: trigger.afterSeconds } };
    case 'segment_entry':
      return { segment_entry: { segment_id: trigger.segmentId } };
    default:
      return { [trigger.kind]: {} };
  }
}

export function stepKind(step: Step): StepKind {
  return (Object.keys(StepSchemas) as StepKind[]).find((k) => k in step) ?? 'exit';
}

/** The templates of a send step. */
export function sendTemplates(step: Step | undefined): MailingTemplates | undefined {
  return step && 'send' in step ? step.send : undefined;
}

/** What is wrong with a step: `at` the path inside it (".wait.seconds", "" for the step itself), and a phrase. */
type StepProblem = { readonly at: string; readonly message: string };

function stepProblem(raw: unknown): StepProblem | undefined {
  const known = { at: '', message: 'must be one of {"wait": …}, {"if": …, "else": "exit"}, {"send": …}, {"exit": {}}.' };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return known;
  const kind = (Object.keys(StepSchemas) as StepKind[]).find((k) => k in raw);
  if (!kind) return known;
  if (kind === 'wait') {
    const wait = (raw as { wait?: { seconds?: unknown } }).wait;
    if (typeof wait?.seconds === 'number' && wait.seconds > MAX_WAIT_SECONDS) {
      return { at: '.wait.seconds', message: `is at most ${MAX_WAIT_SECONDS} seconds (366 days): a wait is at most 366 days.` };
    }
  }
  if (kind === 'if') {
    const condition: unknown = (raw as { if?: unknown }).if;
    const names = Object.keys(ConditionSchemas).join(', ');
    if (typeof condition !== 'object' || condition === null || !Object.keys(condition).some((k) => k in ConditionSchemas)) {
      return { at: '.if', message: `must be one of the conditions: ${names}.` };
    }
  }
  const problem = shapeProblem(StepSchemas[kind], raw);
  if (problem) return problem;
  if (kind === 'send' && mailingChannels((raw as { send: MailingTemplates }).send).length === 0) {
    return { at: '.send', message: 'needs templates for at least one channel.' };
  }
  return undefined;
}

/** The first thing wrong with a step against its schema: where (as a path) and what, in words; undefined when it fits. */
function shapeProblem(schema: TSchema, value: unknown): StepProblem | undefined {
  if (Value.Check(schema, value)) return undefined;
  const first = Value.Errors(schema, value).First();
  if (!first) return { at: '', message: 'is not valid.' };
  const at = first.path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
  return { at, message: `is not valid: ${first.message.toLowerCase()}.` };
}

/** The first thing wrong with a trigger against its schema, in words; undefined when it fits. */
function triggerShapeProblem(schema: TSchema, value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  const first = Value.Errors(schema, value).First();
  if (!first) return 'is not valid.';
  const where = first.path === '' ? '' : ` at ${first.path}`;
  return `is not valid${where}: ${first.message.toLowerCase()}.`;
}
