import { Type, type Static } from '@sinclair/typebox';
import { LedgerTransactionSchema } from './loyalty.schemas.js';

/** admin-api.md, Loyalty programme: amounts are numbers in currency units, two decimals at most. */
const Units = (description: string) => Type.Number({ description });

export const MEMBER_PAGE_DEFAULT = 20;
export const MEMBER_PAGE_MAX = 100;

const Limit = (what: string) =>
  Type.Integer({
    minimum: 1,
    maximum: MEMBER_PAGE_MAX,
    default: MEMBER_PAGE_DEFAULT,
    description: `How many ${what} to answer: 1 to ${MEMBER_PAGE_MAX}, ${MEMBER_PAGE_DEFAULT} by default.`,
  });

export const MemberListQuerySchema = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          'The start of a member phone (spaces, +, -, dots and parentheses ignored) or of its loyalty_id (as written, case-sensitive).',
      }),
    ),
    min_balance: Type.Optional(Type.Number({ description: 'Members whose balance is at least this, in currency units.' })),
    max_balance: Type.Optional(Type.Number({ description: 'Members whose balance is at most this, in currency units.' })),
    joined_from: Type.Optional(Type.String({ format: 'date-time', description: 'Members who joined at or after this time.' })),
    joined_to: Type.Optional(Type.String({ format: 'date-time', description: 'Members who joined at or before this time.' })),
    has_pending: Type.Optional(Type.Boolean({ description: 'true: members with pending bonuses; false: members without.' })),
    limit: Type.Optional(Limit('members')),
    cursor: Type.Optional(Type.String({ maxLength: 64, description: 'The `next_cursor` of the previous page.' })),
  },
  { additionalProperties: false },
);
export type MemberListQuery = Static<typeof MemberListQuerySchema>;

export const MemberListSchema = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        identifier: Type.String({ description: 'The phone, or the loyalty_id when the member has no phone.' }),
        balance: Units('Confirmed, unexpired bonuses not blocked by a hold.'),
        pending: Units('Credits not yet confirmed.'),
        joined_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Newest member first.' },
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as `cursor` for the next page; null on the last.' }),
  },
  { description: 'A page of the programme members.' },
);
export type MemberListBody = Static<typeof MemberListSchema>;

export const TransactionPageQuerySchema = Type.Object(
  {
    limit: Type.Optional(Limit('transactions')),
    before: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Transactions with an id below this one (`next_before` of the previous page).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TransactionPageQuery = Static<typeof TransactionPageQuerySchema>;

export const TransactionPageSchema = Type.Object(
  {
    items: Type.Array(LedgerTransactionSchema, { description: 'Newest first.' }),
    next_before: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass it as `before` for the next page; null on the last.' }),
  },
  { description: "A page of a member's transactions." },
);
export type TransactionPageBody = Static<typeof TransactionPageSchema>;

export const WriteOffBodySchema = Type.Object(
  {
    amount: Units('Bonuses to write off: greater than 0, two decimals at most, within the balance.'),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why, kept with the transaction.' }),
  },
  { additionalProperties: false },
);
export type WriteOffBody = Static<typeof WriteOffBodySchema>;

export const LiabilitiesSchema = Type.Object(
  {
    outstanding: Units('Confirmed, unexpired bonuses: the sum of the members balances (bonuses on hold for an order are not in it).'),
    pending: Units('Bonuses on their way: credits not yet confirmed.'),
    expiring_30_days: Units('Of the outstanding bonuses, those that expire within the next 30 days.'),
    members: Type.Integer({ description: 'Members of the programme.' }),
  },
  { description: "The programme's liabilities, in currency units." },
);
export type LiabilitiesBody = Static<typeof LiabilitiesSchema>;
