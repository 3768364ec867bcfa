import { Type, type Static } from '@sinclair/typebox';
import { ShopIdParam } from './common.schemas.js';
import { MemberLevelSchema, ReferrerCodeField } from './loyalty-levels.schemas.js';

/** admin-api.md, Loyalty programme: amounts are numbers in currency units, two decimals at most. */
const Units = (description: string) => Type.Number({ description });
const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const LoyaltySettingsSchema = Type.Object(
  {
    reward_percent: Percent('Percent of a confirmed order credited as bonuses.'),
    max_bonus_share_percent: Percent('Percent of what is left after discounts that bonuses may pay.'),
    bonus_value: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Currency units one bonus pays for.' }),
    bonus_lifetime_days: Type.Union([Type.Integer({ minimum: 1, maximum: 36_500 }), Type.Null()], {
      description: 'Days a credit lives before it expires; null: bonuses never expire.',
    }),
    reward_pending_days: Type.Integer({ minimum: 0, maximum: 36_500, description: 'Days an order reward stays pending.' }),
  },
  { description: 'The loyalty programme of a shop.' },
);
export type LoyaltySettingsBody = Static<typeof LoyaltySettingsSchema>;

/** PUT replaces the whole programme; an omitted field takes its default (GET before the first PUT). */
export const PutLoyaltySettingsBodySchema = Type.Partial(LoyaltySettingsSchema, { additionalProperties: false });
export type PutLoyaltySettingsBody = Static<typeof PutLoyaltySettingsBodySchema>;

const Identifier = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'The member: its phone (7XXXXXXXXXX, any usual spelling) or its loyalty_id.',
});

export const CreateMemberBodySchema = Type.Object(
  {
    phone: Type.Optional(Type.String({ maxLength: 64 })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    loyalty_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    referrer_code: Type.Optional(ReferrerCodeField),
  },
  { additionalProperties: false, description: 'A phone or a loyalty_id is required.' },
);
export type CreateMemberBody = Static<typeof CreateMemberBodySchema>;

export const MemberCreatedSchema = Type.Object(
  {
    identifier: Type.String({ description: 'The phone, or the loyalty_id when the member has no phone.' }),
    balance: Units('Bonuses the member may spend now.'),
  },
  { description: 'The member.' },
);

export const LedgerTransactionSchema = Type.Object({
  id: Type.Integer({ description: 'The transaction id, unique in the shop.' }),
  amount: Units('Signed: credits positive, debits and holds negative.'),
  status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('cancelled')]),
  kind: Type.String({
    description: 'manual, order_reward, event_reward, referral, refund, debit, write_off, expiry, cancellation or order_hold.',
  }),
  order_id: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why, as given with a manual credit, debit or write-off; null when none was.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const MemberViewSchema = Type.Object(
  {
    identifier: Type.String(),
    balance: Units('Confirmed, unexpired bonuses not blocked by a hold.'),
    pending: Units('Credits not yet confirmed.'),
    transactions: Type.Array(LedgerTransactionSchema, { description: 'Newest first, the latest 200.' }),
    level: MemberLevelSchema,
  },
  { description: 'A member and its ledger.' },
);
export type MemberViewBody = Static<typeof MemberViewSchema>;

export const MemberParamsSchema = Type.Object({ shop_id: ShopIdParam, identifier: Identifier });
export type MemberParams = Static<typeof MemberParamsSchema>;

const Reason = Type.String({ maxLength: 500, description: 'Why, kept with the transaction.' });

export const CreditBodySchema = Type.Object(
  {
    amount: Units('Bonuses to credit: greater than 0, two decimals at most.'),
    expires_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the credit expires; default: the programme lifetime.' }),
    ),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);
export type CreditBody = Static<typeof CreditBodySchema>;

export const DebitBodySchema = Type.Object(
  {
    amount: Units('Bonuses to take: greater than 0, two decimals at most, within the balance.'),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why, kept with the transaction.' }),
  },
  { additionalProperties: false },
);
export type DebitBody = Static<typeof DebitBodySchema>;

export const PostedSchema = Type.Object(
  {
    transaction_id: Type.Integer(),
    balance: Units('The balance after the change.'),
  },
  { description: 'The transaction written.' },
);
