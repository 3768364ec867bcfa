import { Type, type Static } from '@sinclair/typebox';
import { ShopIdParamsSchema } from './common.schemas.js';

/** The admin's reads of loyalty checkout orders (docs/checkout.md "Admin API"). */

const Status = Type.Union([Type.Literal('created'), Type.Literal('completed'), Type.Literal('cancelled')]);
const Time = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
const Amount = (description: string) => Type.Number({ description });

export const OrderSummarySchema = Type.Object({
  order_id: Type.String(),
  status: Status,
  identifier: Type.Union([Type.String(), Type.Null()], { description: "The member's identifier; null for a guest's order." }),
  order_total: Amount('Before anything, in currency units.'),
  order_to_pay: Amount('Left to pay in money, in currency units.'),
  bonuses_charged: Amount('Bonuses held or spent.'),
  bonuses_reward: Amount('Bonuses the order earns (credited on confirm).'),
  subscription: Type.Union([Type.String(), Type.Null()], {
    description: 'The paid subscription the order was computed with (its member was subscribed to it); null: none.',
  }),
  bonus_hold_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The ledger transaction of the bonus hold.' }),
  reward_transaction_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The ledger transaction of the reward, once credited.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  completed_at: Time('When it was confirmed.'),
  cancelled_at: Time('When it was cancelled.'),
});

export const OrderDetailSchema = Type.Intersect([
  OrderSummarySchema,
  Type.Object({
    request: Type.Unknown({ description: 'The request of the last apply, as the service took it (amounts in minor units).' }),
    calculation: Type.Unknown({ description: 'The stored calculation: the Checkout apply result as the apply answered it.' }),
    holds: Type.Unknown({ description: 'What the apply held: bonuses (hundredths), certificates and promo code uses.' }),
  }),
]);

export const OrderListQuerySchema = Type.Object(
  {
    status: Type.Optional(Status),
    identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "A member's phone or loyalty_id." })),
    after: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_after` of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Page size, 50 by default.' })),
  },
  { additionalProperties: false },
);
export type OrderListQuery = Static<typeof OrderListQuerySchema>;

export const OrderListSchema = Type.Object({
  orders: Type.Array(OrderSummarySchema, { description: 'Newest first.' }),
  next_after: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last.' }),
});

export const OrderParamsSchema = Type.Composite([ShopIdParamsSchema, Type.Object({ order_id: Type.String({ maxLength: 255 }) })]);
