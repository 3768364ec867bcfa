// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { MAX_COMMENT_LENGTH, MAX_ORDER_ID_LENGTH } from '../../modules/nps/index.js';
import { ShopIdSchema } from '../common/common.schemas.js';

/**
 * The OpenAPI description of the NPS calls (contract-notes "Beyond interface.md"). As in
 * the profile group these schemas document and do not validate: nps.params.ts and the
 * identity readers keep the contract's order of checks, and parameters may come in the
 * query string, a JSON body or a form, the body winning.
 */

export const NPS_TAGS = ['nps'];

const Text = (description: string) => Type.Optional(Type.String({ description }));

export const NpsCreateSchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Text("Device id: the review is the device's customer's."),
    shop_secret: Text('The shop secret: needed to name the customer by identifiers alone.'),
    email: Text('Email of the customer (without `did`, with `shop_secret`).'),
    phone: Text('Phone of the customer (without `did`, with `shop_secret`).'),
    loyalty_id: Text('Loyalty card or member id (without `did`, with `shop_secret`).'),
    external_id: Text("The shop's own customer id (without `did`, with `shop_secret`)."),
    channel: Type.String({ description: "A channel's code (GET /nps/channels)." }),
    category: Type.String({ description: "A category's code (GET /nps/categories)." }),
    rate: Type.Union([Type.Integer({ minimum: 0, maximum: 10 }), Type.String()], {
      description: 'The rating, 0 to 10: a number or its text.',
    }),
    order_id: Text(`The order reviewed (at most ${MAX_ORDER_ID_LENGTH} characters); one review per order, channel and category.`),
    comment: Text(`What the customer wrote (at most ${MAX_COMMENT_LENGTH} characters).`),
    stream: Text('Client platform (accepted, not used).'),
    sid: Text('Session id (accepted, not used).'),
    seance: Text('Legacy alias of `sid` (accepted, not used).'),
    segment: Text('The SDK’s A/B letter (accepted, not used).'),
  },
  {
    additionalProperties: true,
    description: 'Parameters may come in the query string (the React Native SDK: no body), a JSON body or a form; the body wins.',
  },
);

export const NpsListQuerySchema = Type.Object(
  { shop_id: ShopIdSchema, stream: Text('Client platform (accepted, not used).') },
  { additionalProperties: true },
);

export const NpsChannelListSchema = Type.Array(Type.Object({ name: Type.String(), code: Type.String() }, { additionalProperties: false }), {
  description: "The shop's channels, by code.",
});

const Question = (description: string) => Type.String({ description: `${description}; "" when the shop set none.` });

export const NpsCategoryListSchema = Type.Array(
  Type.Object(
    {
      name: Type.String(),
      code: Type.String(),
      detractor_question: Question('What to ask after a rating of 0 to 6'),
      passive_question: Question('What to ask after a rating of 7 or 8'),
      promoter_question: Question('What to ask after a rating of 9 or 10'),
      detractor_success: Question('The thank-you text after a rating of 0 to 6'),
      passive_success: Question('The thank-you text after a rating of 7 or 8'),
      promoter_success: Question('The thank-you text after a rating of 9 or 10'),
    },
    { additionalProperties: false },
  ),
  { description: "The shop's categories, by code." },
);
