// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { StatusErrorSchema, StatusSuccessSchema, SuccessErrorSchema, SuccessTrueSchema } from '../../http/envelopes.js';
import { ShopIdSchema } from '../common/common.schemas.js';

/**
 * The OpenAPI description of the messaging endpoints (interface.md 3, 15, 16). As for the
 * other public groups, they document and do not validate: messaging.params.ts checks by
 * hand, after the credentials.
 */

export const MESSAGING_TAGS = ['messaging'];

const Str = (description: string) => Type.Optional(Type.String({ description }));
const identifiers = {
  email: Str('Recipient email (group).'),
  phone: Str('Recipient phone (group).'),
  external_id: Str('Recipient external id (group).'),
  loyalty_id: Str('Recipient loyalty id (group).'),
};
const credentials = { shop_id: ShopIdSchema, shop_secret: Type.String({ description: 'The shop secret.' }) };

export const TransactBodySchema = Type.Object({
  ...credentials,
  code: Type.String({ description: 'Code of the transactional mailing.' }),
  ...identifiers,
  telegram_id: Str('Recipient Telegram id (group).'),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Template variables; `variables[KEY]` in forms.' })),
  test: Type.Optional(Type.Union([Type.Boolean(), Type.String()], { description: '`1` or `true`: sent, but no history or statistics.' })),
  cc: Type.Optional(Type.Array(Type.String(), { description: 'Copies (email).' })),
  bcc: Type.Optional(Type.Array(Type.String(), { description: 'Hidden copies (email).' })),
});

export const TransactResponses = {
  200: SuccessTrueSchema({
    payload: Type.Object({
      code: Type.Union([Type.String(), Type.Null()], { description: 'The message code; null for a test send.' }),
    }),
  }),
  '4xx': SuccessErrorSchema,
  '5xx': SuccessErrorSchema,
};

const StatisticsSchema = Type.Object({
  opened: Type.Boolean(),
  clicked: Type.Boolean(),
  hard_bounced: Type.Boolean(),
  soft_bounced: Type.Boolean(),
  complained: Type.Boolean(),
  unsubscribed: Type.Boolean(),
  purchased: Type.Boolean(),
});

export const SentMessageSchema = Type.Object({
  type: Type.String(),
  campaign_id: Type.Integer(),
  code: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD (UTC).' }),
  sent_at: Type.String({ description: 'YYYY-MM-DDTHH:mm:ss.SSSZ' }),
  subject: Type.Union([Type.String(), Type.Null()]),
  body: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  icon: Type.Union([Type.String(), Type.Null()]),
  picture: Type.Union([Type.String(), Type.Null()]),
  statistics: StatisticsSchema,
});

export const NotificationsQuerySchema = Type.Object({
  ...credentials,
  ...identifiers,
  date_from: Str('Deprecated. YYYY-MM-DD.'),
  type: Str('Comma-separated: bulk, trigger, transactional, chain.'),
  channel: Str('Comma-separated channels.'),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
});

const statusResponses = <T extends ReturnType<typeof StatusSuccessSchema>>(ok: T) => ({
  200: ok,
  '4xx': StatusErrorSchema,
  '5xx': StatusErrorSchema,
});

export const NotificationsResponses = statusResponses(
  StatusSuccessSchema({ payload: Type.Object({ messages: Type.Array(SentMessageSchema) }) }),
);

export const CountersQuerySchema = Type.Object({
  ...credentials,
  ...identifiers,
  did: Str('Device id (group; extended counters).'),
  date_from: Type.String({ description: 'YYYY-MM-DD.' }),
  channel: Type.String({ description: 'One channel; several for the extended counters.' }),
  type: Type.String({ description: 'One type; several for the extended counters.' }),
});

export const CountersResponses = statusResponses(
  StatusSuccessSchema({ payload: Type.Object({ counters: Type.Object({ sent: Type.Integer(), opened: Type.Integer() }) }) }),
);

const CounterSchema = Type.Object({ sent: Type.Integer(), opened: Type.Integer(), clicked: Type.Integer() });
export const ExtendedCountersResponses = statusResponses(
  StatusSuccessSchema({
    payload: Type.Object({
      counters: Type.Object({
        channels: Type.Record(Type.String(), Type.Record(Type.String(), Type.Union([CounterSchema, Type.Object({})]))),
      }),
    }),
  }),
);

export const MessageStatusResponses = statusResponses(
  StatusSuccessSchema({
    payload: Type.Object({
      message: Type.Object({
        code: Type.String(),
        type: Type.String(),
        campaign_id: Type.Integer(),
        created_at: Type.String(),
        status: Type.String({ description: 'queued while any delivery is queued; sent when any was sent; else failed.' }),
        channels: Type.Array(
          Type.Object({
            channel: Type.String(),
            status: Type.String(),
            sent_at: Type.Union([Type.String(), Type.Null()]),
            statistics: StatisticsSchema,
          }),
        ),
      }),
    }),
  }),
);
