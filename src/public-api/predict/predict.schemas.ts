// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { ShopIdSchema } from '../common/common.schemas.js';

/**
 * The OpenAPI description of GET /predict/probability-to-purchase (contract-notes, "Beyond
 * interface.md"). As in the profile group these schemas document and do not validate: the
 * contract's order of checks is kept by identity.params.ts, and parameters may come in the
 * query string, a JSON body or a form, the body winning.
 */

export const PREDICT_TAGS = ['recommendations'];

const Identifier = (description: string) => Type.Optional(Type.String({ description }));

export const PredictQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.Optional(Type.String({ description: "Device id: the device's customer is the one predicted." })),
    shop_secret: Type.Optional(Type.String({ description: 'The shop secret: needed to name the customer by identifiers alone.' })),
    email: Identifier('Email of the customer (without `did`, with `shop_secret`).'),
    phone: Identifier('Phone of the customer (without `did`, with `shop_secret`).'),
    telegram_id: Identifier('Telegram id (without `did`, with `shop_secret`).'),
    loyalty_id: Identifier('Loyalty card or member id (without `did`, with `shop_secret`).'),
    external_id: Identifier("The shop's own customer id (without `did`, with `shop_secret`)."),
    sid: Type.Optional(Type.String({ description: 'Session id (accepted, not used).' })),
    seance: Type.Optional(Type.String({ description: 'Legacy alias of `sid` (accepted, not used).' })),
    stream: Type.Optional(Type.String({ description: 'Client platform (accepted, not used).' })),
    segment: Type.Optional(Type.String({ description: 'The SDK’s A/B letter (accepted, not used).' })),
  },
  {
    additionalProperties: true,
    description: 'Parameters may come in the query string, a JSON body or a form; the body wins.',
  },
);

export const PredictResponseSchema = Type.Object(
  {
    probability: Type.Number({ minimum: 0, maximum: 1, description: 'The chance that the customer buys in the next 30 days.' }),
    client_id: Type.String({ description: 'The profile id of the customer predicted.' }),
  },
  { additionalProperties: false },
);
