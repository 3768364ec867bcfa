// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type TSchema } from '@sinclair/typebox';
import { ResultSchema } from '../../modules/checkout/domain/result-body.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { CODE_MAX_LENGTH, MAX_BONUSES_AMOUNT, MAX_CART_LINES, MAX_CODES, TEXT_MAX_LENGTH } from './checkout.params.js';

/**
 * The OpenAPI description of the checkout calls. As for the other public groups these
 * schemas document and do not validate: checkout.params.ts checks in the contract's order.
 */

export const CHECKOUT_TAGS = ['checkout'];

const Secret = Type.String({ description: 'The shop secret.' });
const Text = (description: string) => Type.String({ maxLength: TEXT_MAX_LENGTH, description });
const Num = Type.Number();
const Codes = (description: string) => Type.Array(Type.String({ maxLength: CODE_MAX_LENGTH }), { maxItems: MAX_CODES, description });

const CartLineSchema = Type.Object({
  product_id: Text('The product id (the feed offer id); once per cart.'),
  price: Type.Number({ exclusiveMinimum: 0, description: 'Price of one unit, two decimals at most.' }),
  quantity: Type.Integer({ minimum: 1, description: 'Units.' }),
  discountable: Type.Optional(Type.Boolean({ description: 'False: no promotion discounts the line (default true).' })),
  bonusable: Type.Optional(Type.Boolean({ description: 'False: bonuses cannot pay for the line (default true).' })),
  rewardable: Type.Optional(Type.Boolean({ description: 'False: the line earns no bonuses (default true).' })),
});

export const CheckoutBodySchema = Type.Object({
  shop_id: ShopIdSchema,
  shop_secret: Secret,
  order_id: Type.Optional(Text('The shop’s order id: required by apply, optional for estimate.')),
  identifier: Type.Optional(Text('The member’s phone or loyalty_id; absent: a guest.')),
  payment_type: Type.Optional(Text('Payment type (promotion conditions).')),
  stream: Type.Optional(Text('Sales channel, e.g. a point of sale (promotion conditions).')),
  location_id: Type.Optional(Text('Feed location (promotion conditions).')),
  promo_codes: Type.Optional(Codes('Promo codes to apply.')),
  certificates: Type.Optional(Codes('Gift certificate codes to pay with.')),
  charge_bonuses: Type.Optional(Type.Boolean({ description: 'Pay with bonuses; needs a known member.' })),
  bonuses_amount: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_BONUSES_AMOUNT, description: 'Bonuses to charge at most; absent: as many as allowed.' }),
  ),
  current_time: Type.Optional(
    Type.String({
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: 'HH:MM for time-of-day conditions; absent: now in the shop’s time zone.',
    }),
  ),
  cart_items: Type.Array(CartLineSchema, { minItems: 1, maxItems: MAX_CART_LINES }),
});

export const OrderBodySchema = Type.Object({ shop_id: ShopIdSchema, shop_secret: Secret, order_id: Text('The order id given to apply.') });
export const HistoryQuerySchema = Type.Object({
  shop_id: ShopIdSchema,
  shop_secret: Secret,
  identifier: Text('The member’s phone or loyalty_id.'),
});

const DuplicateSchema = Type.Object(
  { message: Type.String(), identifier: Type.String() },
  { description: 'Two lines of one product id (HTTP 200).' },
);

export const ResultResponseSchema = Type.Object({ status: Type.Literal('success'), payload: Type.Union([ResultSchema, DuplicateSchema]) });
export const CancelResponseSchema = Type.Object({
  status: Type.Literal('success'),
  payload: Type.Object({ order_id: Type.String(), status: Type.Literal('cancelled') }),
});

const OrderSchema = Type.Object({
  id: Type.String(),
  date: Type.String({ description: 'ISO 8601, when the order was first applied.' }),
  status: Type.String({ description: 'created, completed or cancelled.' }),
  total: Type.String({ description: 'order_to_pay, two decimals.' }),
  items: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), quantity: Type.Integer(), price: Num })),
});
export const HistoryResponseSchema: TSchema = Type.Object({
  status: Type.Literal('success'),
  payload: Type.Object({ orders: Type.Array(OrderSchema) }),
});
