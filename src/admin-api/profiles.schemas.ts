import { Type, type Static } from '@sinclair/typebox';
import { DeviceIdSchema, TrackedItemSchema } from './events.schemas.js';

const lookup = (description: string) => Type.Optional(Type.String({ description }));

/**
 * admin-api.md, Profiles (read): at least one criterion (checked by the service, whose
 * message names them all); several criteria must all match. Unknown parameters are
 * refused, so that a misspelt criterion is not silently dropped.
 */
export const ProfileQuerySchema = Type.Object(
  {
    email: lookup('Email; trimmed and lower-cased before the lookup.'),
    phone: lookup('Phone in any usual spelling; normalised to 7XXXXXXXXXX before the lookup.'),
    external_id: lookup("The shop's own customer id."),
    loyalty_id: lookup('Loyalty card or member id.'),
    telegram_id: lookup('Telegram id.'),
    did: Type.Optional(DeviceIdSchema),
  },
  { additionalProperties: false },
);
export type ProfileQuery = Static<typeof ProfileQuerySchema>;

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const SubscriptionsSchema = Type.Object(
  {
    email_bulk: flag('Bulk (campaign) email.'),
    email_chain: flag('Triggered email chains.'),
    email_transactional: flag('Transactional email.'),
    sms_bulk: flag('Bulk SMS.'),
    sms_chain: flag('Triggered SMS chains.'),
    sms_transactional: flag('Transactional SMS.'),
  },
  { description: 'Subscription flags; a flag never set is absent.' },
);

export const PushTokenSchema = Type.Object({
  platform: Type.Union([Type.Literal('ios'), Type.Literal('android')]),
  token: Type.String(),
});

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ProfileSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Profile id.' }),
    email: NullableString('Normalised email, or null.'),
    phone: NullableString('Normalised phone (7XXXXXXXXXX for Russian numbers), or null.'),
    external_id: NullableString("The shop's own customer id, or null."),
    loyalty_id: NullableString('Loyalty id, or null.'),
    telegram_id: NullableString('Telegram id, or null.'),
    devices: Type.Array(DeviceIdSchema, { description: "The profile's devices, oldest first." }),
    segments: Type.Array(Type.Integer(), { description: 'Ids of the segments the profile belongs to, ascending.' }),
    properties: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The profile’s fields beyond its identifiers under their record names (first_name, last_name, gender, ' +
        'birthday, location, kids, auto, age, loyalty_status …) and its custom properties under their codes; a ' +
        'field never set is absent.',
    }),
    subscriptions: SubscriptionsSchema,
    push_tokens: Type.Array(PushTokenSchema, { description: 'Mobile push tokens of the profile, oldest first.' }),
    cart: Type.Array(TrackedItemSchema, { description: 'The current cart.' }),
    wish: Type.Array(TrackedItemSchema, { description: 'The current wish list.' }),
  },
  { description: 'A live customer profile; merged profiles are shown only as the profile they merged into.' },
);
export type ProfileBody = Static<typeof ProfileSchema>;

export const ProfileListSchema = Type.Object(
  { profiles: Type.Array(ProfileSchema) },
  { description: 'The live profiles matching every given criterion, oldest first.' },
);
export type ProfileListBody = Static<typeof ProfileListSchema>;
