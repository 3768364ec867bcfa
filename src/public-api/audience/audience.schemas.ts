// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { AUDIENCE_BODY_LIMIT, MAX_RECORDS_PER_REQUEST } from '../../modules/audience/domain/limits.js';
import { MAX_LIST_ENTRIES } from '../../modules/audience/domain/record.js';
import { ShopIdSchema } from '../common/common.schemas.js';

/**
 * The OpenAPI description of POST /import/audience (interface.md endpoint 11 and
 * "Audience user record"). Documentation only: records are checked one by one when the
 * import runs (modules/audience/domain/record.ts), where a bad record is skipped and a
 * bad field dropped with a reason in the import log, rather than refusing the request.
 */

export const AUDIENCE_TAGS = ['audience'];

const Text = (description: string) => Type.Optional(Type.String({ description }));
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));
const Gender = Type.Union([Type.Literal('m'), Type.Literal('f')]);

export const AudienceRecordSchema = Type.Object(
  {
    email: Text('Email (a key identifier).'),
    phone: Text('Phone, 7XXXXXXXXXX (a key identifier); other spellings are normalised.'),
    loyalty_id: Text('Member id in an external loyalty programme (a key identifier).'),
    external_id: Text("Customer id in the client's database (a key identifier)."),
    telegram_id: Text('Telegram id.'),
    fb_id: Text('Facebook id.'),
    vk_id: Text('VK id.'),
    loyalty_card_location: Text('Location code (from the product feed) where the external card was issued.'),
    loyalty_status: Text('Level in the external programme.'),
    loyalty_bonuses: Type.Optional(Type.Integer({ minimum: 0, description: 'Bonus balance in the external programme.' })),
    loyalty_bonuses_to_next_level: Type.Optional(Type.Integer({ minimum: 0, description: 'Bonuses left to the next level.' })),
    gender: Type.Optional(Gender),
    location: Text('Location code (from the product feed) of the customer.'),
    first_name: Text('First name.'),
    middle_name: Text('Middle name.'),
    last_name: Text('Last name.'),
    age: Type.Optional(Type.Integer({ minimum: 0, maximum: 150, description: 'Age in years.' })),
    birthday: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD.' })),
    bought_something: Flag('Ever bought anything.'),
    kids: Type.Optional(
      Type.Array(Type.Object({ gender: Type.Optional(Gender), birthday: Type.Optional(Type.String({ format: 'date' })) }), {
        maxItems: MAX_LIST_ENTRIES,
        description: 'Children; an entry that is not such an object is dropped with a reason.',
      }),
    ),
    auto: Type.Optional(
      Type.Array(
        Type.Object({ brand: Type.Optional(Type.String()), model: Type.Optional(Type.String()), vds: Type.Optional(Type.String()) }),
        { maxItems: MAX_LIST_ENTRIES, description: 'Cars: brand, model, VDS/VIN.' },
      ),
    ),
    email_bulk: Flag('Subscribed to bulk emails.'),
    email_chain: Flag('Subscribed to triggered email chains.'),
    email_transactional: Flag('Subscribed to transactional emails.'),
    sms_bulk: Flag('Subscribed to bulk SMS.'),
    sms_chain: Flag('Subscribed to triggered SMS chains.'),
    sms_transactional: Flag('Subscribed to transactional SMS.'),
    mobile_token: Text('Mobile push token; kept only with a valid mobile_token_platform.'),
    mobile_token_platform: Type.Optional(Type.Union([Type.Literal('ios'), Type.Literal('android')])),
  },
  {
    additionalProperties: true,
    description:
      'At least one of email, phone, loyalty_id, external_id, else the record is skipped. Custom properties ' +
      'created in the admin API are given under their codes; unknown codes are reported in the import log.',
  },
);

export const ImportAudienceBodySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: Type.String({ description: 'The shop secret.' }),
    audience: Type.Array(AudienceRecordSchema, {
      maxItems: MAX_RECORDS_PER_REQUEST,
      description: `The records, at most ${MAX_RECORDS_PER_REQUEST} (more: 413).`,
    }),
    segment_id: Type.Optional(Type.Integer({ description: 'A segment created in the admin API (unknown: 404).' })),
  },
  {
    description:
      `JSON body of at most ${AUDIENCE_BODY_LIMIT / (1024 * 1024)} MiB. The answer comes once the records are ` +
      'stored; they are imported in the background and the result is in the import log ' +
      '(GET /admin/v1/shops/{shop_id}/imports).',
  },
);
