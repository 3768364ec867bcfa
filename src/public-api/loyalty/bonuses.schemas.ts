// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { SuccessErrorSchema, SuccessTrueSchema } from '../../http/envelopes.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { IDENTIFIER_MAX_LENGTH } from './loyalty.params.js';

/**
 * The OpenAPI description of PATCH /loyalty/bonuses/cancel. As for the other public
 * groups, it documents and does not validate: bonuses.params.ts checks by hand, after
 * the credentials.
 */

const TransactionId = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,16}$' })], { description });

export const CancelBodySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: Type.String({ description: 'The shop secret.' }),
    identifier: Type.String({
      maxLength: IDENTIFIER_MAX_LENGTH,
      description: "The member's phone (any usual spelling), else its loyalty_id.",
    }),
    transaction_id: Type.Optional(TransactionId('The id of the event reward to cancel.')),
    id: Type.Optional(TransactionId('Another name of `transaction_id` (the reference request body uses it).')),
  },
  { description: '`transaction_id` or `id` is required; given both, they must be equal.' },
);

export const CancelResponses = {
  200: SuccessTrueSchema({}),
  '4xx': SuccessErrorSchema,
  '5xx': SuccessErrorSchema,
};
