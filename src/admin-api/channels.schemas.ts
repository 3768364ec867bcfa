import { Type, type Static } from '@sinclair/typebox';
import { CHANNELS } from '../modules/messaging/providers/provider.js';
import { ShopIdParam } from './common.schemas.js';

/** The channels' list with their health, and a channel's test send (docs/messaging.md, "Channels in the admin API"). */

const ChannelName = Type.Union(
  CHANNELS.map((c) => Type.Literal(c)),
  { description: 'The channel.' },
);

const SecretState = Type.Union([Type.Literal('set'), Type.Literal('not_set')]);

export const ChannelHealthSchema = Type.Object({
  since: Type.String({ format: 'date-time', description: 'The start of the counted hours: the current hour and the 23 before it.' }),
  sent: Type.Integer({ description: 'Deliveries the vendor accepted since `since`, test sends included.' }),
  failed: Type.Integer({
    description: 'Deliveries that failed for good since `since` (a retried one counts once, when it fails for good).',
  }),
  bounced: Type.Integer({ description: 'Emails reported bounced (hard or soft) since `since`.' }),
  last_error: Type.Union(
    [
      Type.Object({
        at: Type.String({ format: 'date-time' }),
        vendor: Type.String(),
        message: Type.String({ description: "The vendor's words, credentials and the channel's secrets cut out." }),
      }),
      Type.Null(),
    ],
    { description: 'The last error a vendor of the channel answered, however long ago; null when none.' },
  ),
});

export const ChannelOverviewSchema = Type.Object({
  channel: ChannelName,
  configured: Type.Boolean(),
  vendors: Type.Array(
    Type.Object({
      vendor: Type.String(),
      secrets: Type.Record(Type.String(), SecretState, {
        description: 'Each secret setting of the vendor: set or not set. Secrets are write-only: no value is ever answered.',
      }),
    }),
  ),
  rate_per_second: Type.Union([Type.Integer(), Type.Null()]),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  health: ChannelHealthSchema,
});

export const ChannelListSchema = Type.Object({ channels: Type.Array(ChannelOverviewSchema) });
export type ChannelList = Static<typeof ChannelListSchema>;

export const ChannelTestParamsSchema = Type.Object({ shop_id: ShopIdParam, channel: Type.String({ maxLength: 32 }) });

export const ChannelTestBodySchema = Type.Object(
  {
    to: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        'email: an address; sms, whatsapp: a phone number; telegram: a chat id or @channel; max: a user id; mobile_push: a ' +
        'device token; web_push: a PushSubscription as JSON; wallet: the push token of a registered pass.',
    }),
  },
  { additionalProperties: false },
);
export type ChannelTestBody = Static<typeof ChannelTestBodySchema>;

export const ChannelTestSchema = Type.Object({
  code: Type.String({ description: 'The test message; in the delivery log (GET …/messages/{code}) with its attempt.' }),
  status: Type.Union([Type.Literal('sent'), Type.Literal('failed')]),
  error: Type.Union([Type.String(), Type.Null()], { description: "The vendor's answer when it failed." }),
});

export const ChannelVendorsSchema = Type.Object({
  vendors: Type.Array(
    Type.Object({
      vendor: Type.String({ description: 'The vendor name: the `provider` of the settings.' }),
      secret_fields: Type.Array(Type.String(), {
        description: 'The settings the vendor keeps secret: write-only, answered masked. (Any URL with credentials is secret too.)',
      }),
      settings_schema: Type.Record(Type.String(), Type.Unknown(), {
        description: 'The JSON Schema the vendor validates its settings with (without `provider` and `rate_per_second`).',
      }),
    }),
  ),
});
