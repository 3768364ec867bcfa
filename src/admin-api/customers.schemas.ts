import { Type, type Static } from '@sinclair/typebox';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema, pageSchema } from './paging.js';
import { EventSchema, TrackedItemSchema } from './events.schemas.js';
import { ProfileSchema } from './profiles.schemas.js';

/** The admin UI's customers (docs/admin-lists.md). */

export const CUSTOMER_PAGE_DEFAULT = 50;
export const CUSTOMER_PAGE_MAX = 200;

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Time = (description: string) => Type.String({ format: 'date-time', description });

export const CustomerListQuerySchema = Type.Object(
  {
    identifier: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'Any one identifier: an email, a phone in any usual spelling, an external, loyalty or Telegram id, or a device id. ' +
          'Exact match; the answer is the few profiles holding it, on one page. Absent: every customer, newest first.',
      }),
    ),
    limit: limitQuerySchema(CUSTOMER_PAGE_DEFAULT, CUSTOMER_PAGE_MAX),
    cursor: CursorQuerySchema,
  },
  { additionalProperties: false },
);
export type CustomerListQuery = Static<typeof CustomerListQuerySchema>;

export const CustomerSummarySchema = Type.Object({
  id: Type.Integer({ description: 'Profile id.' }),
  email: NullableString('Normalised email, or null.'),
  phone: NullableString('Normalised phone, or null.'),
  external_id: NullableString("The shop's own customer id, or null."),
  loyalty_id: NullableString('Loyalty id, or null.'),
  telegram_id: NullableString('Telegram id, or null.'),
  created_at: Time('When the profile was created.'),
  updated_at: Time('When its identifiers or properties last changed.'),
});
export type CustomerSummaryBody = Static<typeof CustomerSummarySchema>;

export const CustomerListSchema = pageSchema(CustomerSummarySchema, 'Live customer profiles, newest first.');

export const CustomerParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  profile_id: Type.String({ pattern: '^[0-9]{1,16}$', description: 'Profile id; a merged one leads to the profile it merged into.' }),
});

export const MergeSchema = Type.Object({
  from_profile_id: Type.Integer({ description: 'The profile merged (or whose device moved).' }),
  into_profile_id: Type.Integer({ description: 'The profile it went into.' }),
  reason: Type.String({ description: 'What linked them.' }),
  identifiers: Type.Record(Type.String(), Type.Unknown(), { description: 'The identifiers involved.' }),
  at: Time('When.'),
});

export const CustomerSchema = Type.Object(
  {
    ...ProfileSchema.properties,
    created_at: Time('When the profile was created.'),
    updated_at: Time('When its identifiers or properties last changed.'),
    merges: Type.Array(MergeSchema, { description: 'The merge log entries where the profile is either side, oldest first.' }),
    loyalty: Type.Union(
      [
        Type.Object({
          identifier: Type.String({ description: 'The member identifier (phone, else loyalty id).' }),
          balance: Type.Number({ description: 'Spendable bonuses now, in currency units.' }),
          pending: Type.Number({ description: 'Bonuses not yet confirmed, in currency units.' }),
        }),
        Type.Null(),
      ],
      { description: 'Null when the customer is not a member of the loyalty programme.' },
    ),
  },
  { description: 'One customer, everything cheap to read at once; the event timeline and orders are paged apart.' },
);
export type CustomerBody = Static<typeof CustomerSchema>;

export const HistoryQuerySchema = Type.Object(
  { limit: limitQuerySchema(CUSTOMER_PAGE_DEFAULT, CUSTOMER_PAGE_MAX), cursor: CursorQuerySchema },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuerySchema>;

export const TimelineEventSchema = Type.Object({ id: Type.Integer({ description: 'Event id.' }), ...EventSchema.properties });

export const TimelineSchema = pageSchema(TimelineEventSchema, "The customer's events, newest first (by event time, then id).");

export const CustomerOrderSchema = Type.Object({
  id: Type.Integer({ description: "Patron's order id." }),
  order_id: NullableString("The shop's order id, when the purchase named one."),
  items: Type.Array(TrackedItemSchema),
  items_total: Type.Number({ description: 'Sum of price × amount, in currency units.' }),
  order_price: Type.Union([Type.Number(), Type.Null()], { description: 'The order price the client sent, in currency units.' }),
  delivery_type: NullableString('Delivery type.'),
  payment_type: NullableString('Payment type.'),
  promocode: NullableString('Promo code.'),
  created_at: Time('When the purchase was tracked.'),
});
export type CustomerOrderBody = Static<typeof CustomerOrderSchema>;

export const CustomerOrdersSchema = pageSchema(CustomerOrderSchema, "The customer's tracked purchases, newest first.");

const Flag = (description: string) => Type.Boolean({ description });

export const CustomerMessageSchema = Type.Object({
  code: Type.String({ description: 'The message code (GET …/messages/{code} for every delivery of it).' }),
  type: Type.Union([Type.Literal('bulk'), Type.Literal('chain'), Type.Literal('transactional')]),
  campaign_id: Type.Integer({ description: 'The mailing (bulk), chain or transactional mailing id.' }),
  channel: Type.String({ description: 'email, sms, web_push, mobile_push …' }),
  sent_at: Time('When the provider accepted it.'),
  subject: NullableString('Subject (email) or title (push).'),
  body: NullableString('The text as sent, where the channel keeps one.'),
  url: NullableString('Link of a push.'),
  icon: NullableString('Icon of a push.'),
  picture: NullableString('Picture of a push.'),
  statistics: Type.Object({
    opened: Flag('Opened.'),
    clicked: Flag('A link was clicked.'),
    hard_bounced: Flag('Hard bounce.'),
    soft_bounced: Flag('Soft bounce.'),
    complained: Flag('Marked as spam.'),
    unsubscribed: Flag('Unsubscribed through it.'),
    purchased: Flag('A purchase was attributed to it.'),
  }),
});
export type CustomerMessageBody = Static<typeof CustomerMessageSchema>;

export const CustomerMessagesSchema = pageSchema(
  CustomerMessageSchema,
  'The messages sent to the customer, newest first (by sent time, then code and delivery).',
);
