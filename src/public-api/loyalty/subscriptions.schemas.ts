// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { SuccessErrorSchema, SuccessTrueSchema } from '../../http/envelopes.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { IDENTIFIER_MAX_LENGTH } from './loyalty.params.js';

/**
 * The OpenAPI description of the paid-subscription reads (interface.md endpoints 2 and
 * 4). As for the other public groups, these schemas document and do not validate:
 * subscriptions.params.ts checks by hand, after the credentials.
 */

const Common = {
  shop_id: ShopIdSchema,
  shop_secret: Type.String({ description: 'The shop secret.' }),
  identifier: Type.String({
    maxLength: IDENTIFIER_MAX_LENGTH,
    description: "The member's phone (any usual spelling), else its loyalty_id.",
  }),
  subscription: Type.String({ maxLength: 64, description: 'The subscription code.' }),
};

export const StatusQuerySchema = Type.Object(Common);
export const OrdersQuerySchema = Type.Object({
  ...Common,
  date_from: Type.Optional(Type.String({ format: 'date', description: 'First day (shop time zone) of the orders listed.' })),
  date_to: Type.Optional(
    Type.String({ format: 'date', description: 'Last day (shop time zone) of the orders listed; not before date_from.' }),
  ),
});

const Money = (description: string) =>
  Type.Integer({ description: `${description}, in whole currency units (interface.md types it Integer).` });

const PromosValue = Type.Object({
  promotions: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), status: Type.String() })),
  savings_limit: Money('Discount limit over these promotions per billing period'),
  savings_used: Money('Discounts received this period (orders held and confirmed)'),
  savings_left: Money('Discounts still available this period'),
  usage_limit: Type.Integer({ description: 'Orders per billing period that may take these promotions.' }),
  usage_used: Type.Integer(),
  usage_left: Type.Integer(),
});

const BenefitSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  data_type: Type.Union([Type.Literal('boolean'), Type.Literal('integer'), Type.Literal('promos')]),
  value: Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1_000_000 }), PromosValue]),
});

export const StatusResponses = {
  200: SuccessTrueSchema({
    payload: Type.Object({
      message: Type.String(),
      member: Type.Object({
        identifier: Type.String(),
        subscription: Type.String(),
        plan: Type.String(),
        active: Type.Boolean({ description: 'False once paid_till is in the past.' }),
        paid_till: Type.String({ format: 'date' }),
        limits_reset_date: Type.String({
          format: 'date',
          description: 'The first day of the next billing period, when the limits start afresh.',
        }),
      }),
      benefits: Type.Array(BenefitSchema),
    }),
  }),
  '4xx': SuccessErrorSchema,
  '5xx': SuccessErrorSchema,
};

const OrderSchema = Type.Object({
  id: Type.String(),
  date: Type.String({ format: 'date-time' }),
  status: Type.String({ description: '`created`, `completed` or `cancelled`.' }),
  total: Type.String({ description: 'order_to_pay of the checkout, two decimals.' }),
  discounts: Type.Object({
    saved_total: Type.Number(),
    saved_by_discounts: Type.Number(),
    saved_by_bonuses: Type.Number(),
    saved_by_offers: Type.Number(),
    saved_by_certificates: Type.Number(),
    applied_promotions: Type.Array(Type.Integer()),
  }),
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String({ description: 'From the feed; `---` when the product is not in it.' }),
      quantity: Type.Integer(),
      price: Type.Number({ description: 'total_after_discounts_per_product of the checkout.' }),
    }),
  ),
});

export const OrdersResponses = {
  200: SuccessTrueSchema({ payload: Type.Object({ message: Type.String(), orders: Type.Array(OrderSchema) }) }),
  '4xx': SuccessErrorSchema,
  '5xx': SuccessErrorSchema,
};
