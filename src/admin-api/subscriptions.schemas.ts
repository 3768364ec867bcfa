import { Type, type Static } from '@sinclair/typebox';
import {
  CODE_PATTERN_TEXT,
  INTEGER_BENEFIT_MAX,
  MAX_BENEFIT_PROMOTIONS,
  MAX_BENEFITS,
  MAX_USAGE_LIMIT,
  NAME_MAX_LENGTH,
  PERIOD_DAYS_MAX,
} from '../modules/subscriptions/domain/benefits.js';
import { ShopIdParam } from './common.schemas.js';

/** admin-api.md, "Paid subscriptions" (docs/subscriptions.md). Money in currency units, two decimals at most. */

const Code = Type.String({
  pattern: CODE_PATTERN_TEXT,
  description: 'Letters, digits, `-` and `_`, 1 to 64; case-sensitive.',
  examples: ['plus'],
});
const Name = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH });
const Status = Type.Union([Type.Literal('inactive'), Type.Literal('active'), Type.Literal('archived')], {
  description:
    '`active` gives benefits; `inactive` keeps members but gives none; `archived` is inactive for good and takes no new members.',
});
const IsoTime = Type.String({ format: 'date-time' });

export const SubscriptionParamsSchema = Type.Object({ shop_id: ShopIdParam, code: Type.String({ maxLength: 64 }) });
export const PlanParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ maxLength: 64 }),
  plan: Type.String({ maxLength: 64 }),
});
export const MemberParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ maxLength: 64 }),
  identifier: Type.String({ maxLength: 255 }),
});

export const CreateSubscriptionBodySchema = Type.Object(
  { code: Code, name: Name, status: Type.Optional(Status) },
  { additionalProperties: false },
);
export const PatchSubscriptionBodySchema = Type.Object(
  { name: Type.Optional(Name), status: Type.Optional(Status) },
  { additionalProperties: false },
);
export const ListSubscriptionsQuerySchema = Type.Object({ status: Type.Optional(Status) }, { additionalProperties: false });

export const SubscriptionSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  status: Status,
  created_at: IsoTime,
  updated_at: IsoTime,
});
export type SubscriptionBody = Static<typeof SubscriptionSchema>;
export const SubscriptionListSchema = Type.Object({ subscriptions: Type.Array(SubscriptionSchema) });

const BenefitHead = { code: Code, name: Name };
const BenefitSchema = Type.Union([
  Type.Object({ ...BenefitHead, data_type: Type.Literal('boolean'), value: Type.Boolean() }, { additionalProperties: false }),
  Type.Object(
    {
      ...BenefitHead,
      data_type: Type.Literal('integer'),
      value: Type.Integer({ description: `0 to ${INTEGER_BENEFIT_MAX.toLocaleString('en')}.` }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ...BenefitHead,
      data_type: Type.Literal('promos'),
      promotion_ids: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { maxItems: MAX_BENEFIT_PROMOTIONS }),
      savings_limit: Type.Number({
        minimum: 0,
        description: 'Discount per billing period over these promotions, in whole currency units (the Benefit table types it Integer).',
      }),
      usage_limit: Type.Integer({
        minimum: 0,
        maximum: MAX_USAGE_LIMIT,
        description: 'Orders per billing period that may take these promotions.',
      }),
    },
    { additionalProperties: false },
  ),
]);
export type BenefitBody = Static<typeof BenefitSchema>;
const Benefits = Type.Array(BenefitSchema, { maxItems: MAX_BENEFITS, description: 'At least one benefit.' });
const PeriodDays = Type.Integer({ minimum: 1, maximum: PERIOD_DAYS_MAX, description: 'Length of a billing period in days.' });

export const CreatePlanBodySchema = Type.Object(
  { code: Code, name: Name, period_days: PeriodDays, status: Type.Optional(Status), benefits: Benefits },
  { additionalProperties: false },
);
export type CreatePlanBody = Static<typeof CreatePlanBodySchema>;
export const PatchPlanBodySchema = Type.Object(
  { name: Type.Optional(Name), period_days: Type.Optional(PeriodDays), status: Type.Optional(Status), benefits: Type.Optional(Benefits) },
  { additionalProperties: false },
);
export type PatchPlanBody = Static<typeof PatchPlanBodySchema>;

export const PlanSchema = Type.Object({
  subscription: Type.String(),
  code: Type.String(),
  name: Type.String(),
  status: Status,
  period_days: Type.Integer(),
  benefits: Type.Array(BenefitSchema),
  created_at: IsoTime,
  updated_at: IsoTime,
});
export type PlanBody = Static<typeof PlanSchema>;
export const PlanListSchema = Type.Object({ plans: Type.Array(PlanSchema) });

export const SubscribeBodySchema = Type.Object(
  {
    identifier: Type.String({ minLength: 1, maxLength: 255, description: "The loyalty member's phone, else its loyalty_id." }),
    plan: Code,
    paid_till: Type.String({ maxLength: 10, description: 'YYYY-MM-DD: the last paid day, in the shop’s time zone.' }),
  },
  { additionalProperties: false },
);

export const SubscriptionMemberSchema = Type.Object({
  identifier: Type.String(),
  subscription: Type.String(),
  plan: Type.String(),
  active: Type.Boolean({ description: 'False once paid_till is in the past.' }),
  paid_till: Type.String({ format: 'date' }),
  limits_reset_date: Type.String({ format: 'date', description: 'The first day of the next billing period.' }),
  started_on: Type.String({ format: 'date', description: 'The first day of the first billing period.' }),
});
export type SubscriptionMemberBody = Static<typeof SubscriptionMemberSchema>;

export const MemberListQuerySchema = Type.Object(
  { after: Type.Optional(Type.String({ maxLength: 255 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) },
  { additionalProperties: false },
);
export const MemberListSchema = Type.Object({
  members: Type.Array(SubscriptionMemberSchema),
  next_after: Type.Union([Type.String(), Type.Null()]),
});
