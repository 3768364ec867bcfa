import { Type, type Static } from '@sinclair/typebox';
import { MAX_STEPS, MAX_WAIT_SECONDS, MIN_PERIOD_SECONDS } from '../modules/chains/domain/definition.js';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema, NextCursorSchema } from './paging.js';
import { DeviceIdSchema } from './events.schemas.js';

/**
 * admin-api.md "Chains and bulk mailings" (the core) and our extensions (docs/chains.md).
 * The trigger and the steps are checked by the chain module when saved
 * (modules/chains/domain/definition.ts holds their TypeBox shapes), so that a refusal
 * names the step and says what is wrong with it in one sentence.
 */

export const ChainParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ minLength: 1, maxLength: 255, description: "The chain's code." }),
});
export type ChainParams = Static<typeof ChainParamsSchema>;

const TriggerSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'One of {"event": "<custom event code>"}, {"abandoned_cart": {"after_seconds": N}}, {"abandoned_wish": {"after_seconds": N}}, ' +
      '{"back_in_stock": {}}, {"price_drop": {}}, {"segment_entry": {"segment_id": N}}.',
  },
);
const StepsSchema = Type.Array(Type.Object({}, { additionalProperties: true }), {
  description:
    `At most ${MAX_STEPS} steps, each one of {"wait": {"seconds": N}} (N ≤ ${MAX_WAIT_SECONDS}, 366 days), {"wait": {"until": "HH:MM"}} ` +
    '(the next such time in the shop\'s time zone), {"if": C, "else": "exit"}, {"send": <templates of a transactional mailing>}, ' +
    '{"exit": {}}. C is one of {"variable": name, "equals": value}, {"purchased": bool} (since the run started), ' +
    '{"property": name, "equals": value}, {"level": code}, {"segment": id}, {"opened": bool}, {"clicked": bool} (a message of this chain, since the run started).',
});

export const PutChainBodySchema = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')], {
      description: 'A paused chain starts no runs; its waiting runs go on.',
    }),
    trigger: TriggerSchema,
    reentry: Type.Union([Type.Literal('always'), Type.Literal('once'), Type.Literal('once_per_period')], {
      description:
        'always: every trigger starts a run; once: once ever per profile; once_per_period: at most once per `reentry_period_seconds`.',
    }),
    reentry_period_seconds: Type.Optional(Type.Integer({ minimum: MIN_PERIOD_SECONDS, maximum: MAX_WAIT_SECONDS })),
    steps: StepsSchema,
  },
  { additionalProperties: false },
);
export type PutChainBody = Static<typeof PutChainBodySchema>;

export const ChainSchema = Type.Object(
  {
    id: Type.Integer({ description: "Per shop; the `campaign_id` of the chain's messages." }),
    code: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    trigger: TriggerSchema,
    reentry: Type.String(),
    reentry_period_seconds: Type.Union([Type.Integer(), Type.Null()]),
    version: Type.Integer({ description: 'Each PUT writes a new version; runs keep the version they started on.' }),
    steps: StepsSchema,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A chain and the steps of its current version.' },
);
export type ChainBody = Static<typeof ChainSchema>;

export const ChainListSchema = Type.Object({ chains: Type.Array(ChainSchema) });

export const RunsQuerySchema = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 255 })),
    phone: Type.Optional(Type.String({ maxLength: 64 })),
    did: Type.Optional(DeviceIdSchema),
    limit: limitQuerySchema(50, 100),
    cursor: CursorQuerySchema,
  },
  {
    additionalProperties: false,
    description:
      "With `email`, `phone` or `did`: that profile's runs (at most 100). Without: every run of the chain, newest first, a page at a time (`limit`, `cursor`).",
  },
);
export type RunsQuery = Static<typeof RunsQuerySchema>;

export const RunsSchema = Type.Object({
  runs: Type.Array(
    Type.Object({
      id: Type.Integer(),
      status: Type.Union([Type.Literal('waiting'), Type.Literal('done'), Type.Literal('exited')]),
      step: Type.Integer({ description: 'The index of the current step, from 0 (the last one reached once the run ended).' }),
      started_at: Type.String({ format: 'date-time' }),
      version: Type.Integer({ description: 'The chain version the run follows.' }),
      due_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'A waiting run: when its current step runs.',
      }),
      ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      reason: Type.Union([Type.String(), Type.Null()], { description: 'Why an exited run exited.' }),
      profile_id: Type.Integer({ description: "The run's profile (GET …/customers/{id})." }),
    }),
  ),
  next_cursor: Type.Optional(NextCursorSchema),
});

export const StatsQuerySchema = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, description: "The chain's version; its current one by default." })) },
  { additionalProperties: false },
);

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const ChainStatsSchema = Type.Object(
  {
    version: Type.Integer({ description: 'The version counted: its runs and their messages.' }),
    current_version: Type.Integer(),
    steps: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'The step, from 0.' }),
        kind: Type.String({ description: 'wait, if, send or exit.' }),
        entered: count('Runs that reached the step.'),
        waiting: count('Runs at the step now, waiting for it to come due.'),
        exited: count('Runs that ended `exited` at the step.'),
        done: count('Runs that ended `done` at the step (the last one).'),
        sent: Type.Optional(count('Send steps: deliveries sent.')),
        opened: Type.Optional(count('Send steps: deliveries opened.')),
        clicked: Type.Optional(count('Send steps: deliveries clicked.')),
      }),
    ),
  },
  { description: "A chain version's runs and messages per step, counted from indexes of the chain." },
);
