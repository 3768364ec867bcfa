import { Type, type Static } from '@sinclair/typebox';
import { MailingTemplatesSchema } from '../modules/messaging/domain/mailing.js';
import { ShopIdParam } from './common.schemas.js';

/** admin-api.md, "Messaging": channel settings, transactional mailings, the delivery log. */

export const ChannelParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  channel: Type.String({ description: 'email, sms, mobile_push, web_push, telegram, whatsapp, max or wallet.' }),
});
export type ChannelParams = Static<typeof ChannelParamsSchema>;

export const VapidKeysBodySchema = Type.Object(
  {
    subject: Type.String({
      pattern: '^(mailto:[^\\s]+|https://[^\\s]+)$',
      maxLength: 320,
      description: 'A mailto: or https: contact the push services can reach the shop at.',
    }),
  },
  { additionalProperties: false },
);

export const ChannelSettingsSchema = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'email: `{"smtp_url", "from"}` (or `{"provider": "<vendor>", …}`); other channels: `{"provider": "<vendor>", …vendor ' +
    'settings}`, or one object per vendor (`{"fcm": {…}, "apns": {…}}`). Optional `rate_per_second`. Secrets are ' +
    'answered masked; sending a masked value back keeps the stored secret.',
  maxProperties: 100,
});

export const MailingParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ minLength: 1, maxLength: 255, description: 'The code POST /transact names.' }),
});
export type MailingParams = Static<typeof MailingParamsSchema>;

export const PutMailingBodySchema = Type.Object(
  { name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])), ...MailingTemplatesSchema.properties },
  { additionalProperties: false },
);
export type PutMailingBody = Static<typeof PutMailingBodySchema>;

export const MailingSchema = Type.Object({
  id: Type.Integer({ description: 'The `campaign_id` of the history.' }),
  code: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  ...MailingTemplatesSchema.properties,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export const MailingListSchema = Type.Object({
  mailings: Type.Array(MailingSchema, { description: 'A page of the mailings, by code.' }),
  next_after: Type.Union([Type.String(), Type.Null()], {
    description: 'The last code of the page: pass it as `after` for the next page; null on the last page.',
  }),
});

export const MailingListQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Mailings per page: 1 to 200, 50 by default.' }),
    ),
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'The `next_after` of the previous page: the mailings whose code sorts after it.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreviewBodySchema = Type.Object(
  {
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    profile: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Fields the templates read under `profile`.' })),
    locale: Type.Optional(Type.String({ maxLength: 35 })),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBodySchema>;
export const PreviewSchema = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
  description: 'The rendered template of each channel.',
});

export const TestSendBodySchema = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    phone: Type.Optional(Type.String({ maxLength: 64 })),
    external_id: Type.Optional(Type.String({ maxLength: 255 })),
    loyalty_id: Type.Optional(Type.String({ maxLength: 255 })),
    telegram_id: Type.Optional(Type.String({ maxLength: 255 })),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type TestSendBody = Static<typeof TestSendBodySchema>;
export const TestSendSchema = Type.Object({
  code: Type.String({ description: 'The test message; its deliveries are in GET …/messages?code=.' }),
});

export const MessagesQuerySchema = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  phone: Type.Optional(Type.String({ maxLength: 64 })),
  code: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});
export type MessagesQuery = Static<typeof MessagesQuerySchema>;

export const DeliveryLogSchema = Type.Object({
  messages: Type.Array(
    Type.Object({
      code: Type.String(),
      channel: Type.String(),
      type: Type.String(),
      status: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed')]),
      error: Type.Optional(Type.String()),
      to: Type.String(),
      test: Type.Boolean(),
      attempts: Type.Integer(),
      created_at: Type.String({ format: 'date-time' }),
      sent_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
});
