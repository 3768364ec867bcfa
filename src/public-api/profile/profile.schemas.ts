// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type TSchema } from '@sinclair/typebox';
import { SUBSCRIPTION_FLAGS } from '../../modules/audience/domain/record.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { PopupFieldSchema } from '../common/popup.js';

/**
 * The OpenAPI description of the profile group. As for tracking, these schemas document
 * and do not validate (the routes compile them with noSchemaValidation): the contract's
 * order of checks (shop, did, then fields) is kept by the *.params.ts mappers, and every
 * parameter may come in the query string, a JSON body or a form, the body winning.
 */

export const PROFILE_TAGS = ['profile'];

const Did = Type.String({ description: 'Device id, as /init issued it or the SDK brought it.' });
const Secret = Type.String({ description: 'The shop secret: needed to name the customer by identifiers alone.' });
const Identifier = (description: string) => Type.Optional(Type.String({ description }));
const CustomerFields = {
  shop_id: ShopIdSchema,
  did: Type.Optional(Did),
  shop_secret: Type.Optional(Secret),
  email: Identifier('Email of the customer.'),
  phone: Identifier('Phone of the customer, in any usual spelling.'),
  external_id: Identifier("The shop's own customer id."),
  loyalty_id: Identifier('Loyalty card or member id.'),
  telegram_id: Identifier('Telegram id.'),
};
const SessionFields = {
  sid: Type.Optional(Type.String({ description: 'Session id (accepted, not used).' })),
  seance: Type.Optional(Type.String({ description: 'Legacy alias of `sid` (accepted, not used).' })),
  stream: Type.Optional(Type.String({ description: 'Client platform (accepted, not used).' })),
};
const flags = Object.fromEntries(
  SUBSCRIPTION_FLAGS.map((flag) => [flag, Type.Optional(Type.Boolean({ description: `Subscription flag ${flag}.` }))]),
) as Record<string, TSchema>;

const WHERE = 'Parameters may come in the query string, a JSON body or a form; the body wins.';

const Text = (description: string) => Type.Optional(Type.String({ description }));

export const ProfileSetBodySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Did,
    ...SessionFields,
    email: Identifier('Email; links the device to the customer holding it.'),
    phone: Identifier('Phone; normalised to 7XXXXXXXXXX for Russian numbers.'),
    external_id: Identifier("The shop's own customer id (a JSON number is read as its text)."),
    loyalty_id: Identifier('Loyalty card or member id.'),
    telegram_id: Identifier('Telegram id.'),
    first_name: Text('First name.'),
    last_name: Text('Last name.'),
    middle_name: Text('Middle name.'),
    gender: Type.Optional(Type.Union([Type.Literal('m'), Type.Literal('f')])),
    birthday: Type.Optional(Type.String({ description: 'YYYY-MM-DD, from 1900-01-01 to today in the shop’s time zone.' })),
    age: Type.Optional(Type.Integer({ minimum: 0, maximum: 150 })),
    location: Text('Location id from the product feed (the customer’s city).'),
    kids: Type.Optional(
      Type.String({ description: 'JSON text of an array of `{"gender": "m"|"f", "birthday": "YYYY-MM-DD"}` (a JSON array is taken too).' }),
    ),
    auto: Type.Optional(Type.String({ description: 'JSON text of an array of `{"brand", "model", "vds"}` (a JSON array is taken too).' })),
    bought_something: Type.Optional(Type.Boolean()),
    ...flags,
  },
  {
    additionalProperties: true,
    description:
      `${WHERE} Besides these, the audience record's other fields (loyalty_status, fb_id, vk_id …), \`mobile_token\` ` +
      'with `mobile_token_platform`, and the custom properties of the shop under their codes. Any bad value ' +
      'refuses the whole request with 422 naming it, and nothing is stored; a key that is neither a field nor a ' +
      'custom property of the shop is left out and named in the answer.',
  },
);

export const ProfileSetResponseSchema = Type.Object(
  {
    status: Type.Literal('success'),
    payload: Type.Optional(
      Type.Object({
        ignored_keys: Type.Array(Type.String(), {
          description: 'Keys left out, in the order sent: neither profile fields nor custom properties of the shop.',
        }),
      }),
    ),
    ...PopupFieldSchema,
  },
  { description: '`{"status":"success"}`; with `payload.ignored_keys` when some keys were left out (the rest is stored).' },
);

export const ProfileQuerySchema = Type.Object(
  { ...CustomerFields, ...SessionFields },
  {
    additionalProperties: true,
    description: `${WHERE} The device's profile; with \`shop_secret\`, the profile holding every given identifier, in full.`,
  },
);

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export const ProfileResponseSchema = Type.Object(
  {
    id: Type.String({ description: 'Profile id.' }),
    has_email: Type.Boolean(),
    gender: Nullable(Type.Union([Type.Literal('m'), Type.Literal('f')])),
    bought_something: Type.Boolean(),
    custom_properties: Type.Record(Type.String(), Type.Unknown(), { description: 'Custom properties under their codes.' }),
    email: Type.Optional(Nullable(Type.String())),
    phone: Type.Optional(Nullable(Type.String())),
    external_id: Type.Optional(Nullable(Type.String())),
    loyalty_id: Type.Optional(Nullable(Type.String())),
    telegram_id: Type.Optional(Nullable(Type.String())),
    first_name: Type.Optional(Nullable(Type.String())),
    middle_name: Type.Optional(Nullable(Type.String())),
    last_name: Type.Optional(Nullable(Type.String())),
    birthday: Type.Optional(Nullable(Type.String())),
    age: Type.Optional(Nullable(Type.Integer())),
    location: Type.Optional(Nullable(Type.String())),
    kids: Type.Optional(Type.Array(Type.Object({ gender: Type.Optional(Type.String()), birthday: Type.Optional(Type.String()) }))),
    auto: Type.Optional(
      Type.Array(
        Type.Object({ brand: Type.Optional(Type.String()), model: Type.Optional(Type.String()), vds: Type.Optional(Type.String()) }),
      ),
    ),
    fb_id: Type.Optional(Nullable(Type.String())),
    vk_id: Type.Optional(Nullable(Type.String())),
    loyalty_card_location: Type.Optional(Nullable(Type.String())),
    loyalty_status: Type.Optional(Nullable(Type.String())),
    loyalty_bonuses: Type.Optional(Nullable(Type.Integer())),
    loyalty_bonuses_to_next_level: Type.Optional(Nullable(Type.Integer())),
  },
  {
    description:
      'Bare (no envelope). Without `shop_secret` only the fields an app may show anyone holding the device: id, ' +
      'has_email, gender, bought_something, custom_properties. With it, the full profile: identifiers and every ' +
      'record field (null when never set).',
  },
);

export const PushTokenQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Did,
    token: Type.String({ description: 'The FCM or APNs token, at most 4096 characters.' }),
    platform: Type.Union([Type.Literal('ios'), Type.Literal('android')]),
    ...SessionFields,
  },
  { additionalProperties: true, description: `${WHERE} The SDK sends them in the query string with an empty form body.` },
);

export const SubscriptionsManageBodySchema = Type.Object(
  { ...CustomerFields, ...SessionFields, ...flags },
  { additionalProperties: true, description: `${WHERE} At least one flag; the others keep their values.` },
);

export const SegmentChangeBodySchema = Type.Object(
  {
    ...CustomerFields,
    ...SessionFields,
    segment_id: Type.Integer({ minimum: 1, description: 'A static segment of the admin API (a string of digits is taken too).' }),
  },
  { additionalProperties: true, description: WHERE },
);

export const SegmentQuerySchema = Type.Object(
  { ...CustomerFields, ...SessionFields },
  { additionalProperties: true, description: `${WHERE} The SDK also repeats them in a JSON body of the GET, which is read.` },
);

export const SegmentListSchema = Type.Array(Type.Object({ id: Type.Integer(), type: Type.Literal('static') }), {
  description: 'Bare: the segments the customer belongs to, ascending by id.',
});
