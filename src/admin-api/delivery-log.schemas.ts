import { Type, type Static } from '@sinclair/typebox';
import { CHANNELS } from '../modules/messaging/providers/provider.js';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema, pageSchema } from './paging.js';

/** The delivery log (docs/messaging.md, "The delivery log"): a keyset search, and one message whole. */

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const Time = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([Time, Type.Null()]);

export const MessageSearchQuerySchema = Type.Object(
  {
    profile_id: Type.Optional(Type.Integer({ minimum: 1, description: "The customer's profile id." })),
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 254, description: 'The customer by email: their profiles, and deliveries to it.' }),
    ),
    phone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'The customer by phone: their profiles, and deliveries to it.' }),
    ),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The message code.' })),
    channel: Type.Optional(literals(CHANNELS, 'The channel.')),
    status: Type.Optional(literals(['queued', 'sent', 'failed'], 'The delivery status.')),
    outcome: Type.Optional(
      literals(
        ['delivered', 'opened', 'clicked', 'unsubscribed', 'bounced', 'hard_bounced', 'soft_bounced', 'complained', 'purchased'],
        'Deliveries with this outcome recorded; `bounced` is hard or soft.',
      ),
    ),
    type: Type.Optional(literals(['transactional', 'bulk', 'chain'], 'The message type.')),
    test: Type.Optional(Type.Boolean({ description: 'true: test sends only; false: no test sends.' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after (ISO time).' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before (ISO time).' })),
    cursor: CursorQuerySchema,
    limit: limitQuerySchema(50, 200),
  },
  { additionalProperties: false },
);
export type MessageSearchQuery = Static<typeof MessageSearchQuerySchema>;

const OutcomesSchema = Type.Object(
  {
    delivered_at: NullableTime,
    opened_at: NullableTime,
    clicked_at: NullableTime,
    unsubscribed_at: NullableTime,
    hard_bounced_at: NullableTime,
    soft_bounced_at: NullableTime,
    complained_at: NullableTime,
    purchased_at: NullableTime,
  },
  { description: 'When each outcome was first recorded; null when it was not.' },
);

const LogEntryProperties = {
  code: Type.String({ description: 'The message code.' }),
  seq: Type.Integer({ description: 'The delivery within the message.' }),
  channel: Type.String(),
  vendor: Type.Union([Type.String(), Type.Null()], { description: 'The vendor that was tried; null before any try.' }),
  type: Type.String(),
  profile_id: Type.Integer({ description: '0 for a channel test send.' }),
  to: Type.String({ description: 'The address: an email, a phone, a chat id, a token, a subscription.' }),
  status: literals(['queued', 'sent', 'failed'], 'queued, sent or failed.'),
  error: Type.Union([Type.String(), Type.Null()]),
  test: Type.Boolean(),
  attempts: Type.Integer(),
  created_at: Time,
  sent_at: NullableTime,
  outcomes: OutcomesSchema,
};

export const MessageSearchPageSchema = pageSchema(Type.Object(LogEntryProperties), 'Deliveries, newest first.');

export const MessageParamsSchema = Type.Object({ shop_id: ShopIdParam, code: Type.String({ minLength: 1, maxLength: 64 }) });

export const MessageDetailSchema = Type.Object({
  code: Type.String(),
  type: Type.String(),
  mailing_code: Type.String({ description: "The mailing's (or chain's, bulk mailing's) template reference; empty for a channel test." }),
  campaign_id: Type.Integer(),
  profile_id: Type.Integer(),
  test: Type.Boolean(),
  created_at: Time,
  deliveries: Type.Array(
    Type.Object({
      ...LogEntryProperties,
      provider_message_id: Type.Union([Type.String(), Type.Null()]),
      content: Type.Object(
        {
          subject: Type.Union([Type.String(), Type.Null()], { description: "An email's subject, a push's title." }),
          text: Type.Union([Type.String(), Type.Null()], {
            description: "An email's text part, a push's body, an SMS's or chat message's text.",
          }),
          html: Type.Union([Type.String(), Type.Null()], {
            description:
              "An email's HTML as rendered, before tracking links were added: data to show in a sandboxed iframe " +
              '(`srcdoc`, no `allow-scripts`), never to be put in the page itself.',
          }),
          url: Type.Union([Type.String(), Type.Null()]),
          icon: Type.Union([Type.String(), Type.Null()]),
          picture: Type.Union([Type.String(), Type.Null()]),
        },
        { description: 'What was sent; null fields before the first try.' },
      ),
      tries: Type.Array(
        Type.Object({
          attempt: Type.Integer({ description: '1 for the first.' }),
          at: Time,
          vendor: Type.Union([Type.String(), Type.Null()]),
          outcome: literals(
            ['sent', 'temporary', 'permanent', 'dead_address', 'unknown'],
            'sent, or the failure kind (temporary ones are retried; unknown: the vendor may have taken it, not sent again).',
          ),
          answer: Type.Union([Type.String(), Type.Null()], { description: "The vendor's message id of a send, or its error." }),
          duration_ms: Type.Integer(),
        }),
        { description: 'Each try of the delivery, oldest first.' },
      ),
    }),
  ),
});
