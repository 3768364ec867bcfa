// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type TNumber, type TSchema } from '@sinclair/typebox';
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
/** The sticker objects: empty until stickers exist (contract-notes). */
const Empty = Type.Object({}, { additionalProperties: false, description: 'Empty until stickers exist.' });
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
  bonuses_amount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BONUSES_AMOUNT, description: 'Bonuses to charge at most; absent: as many as allowed.' })),
  current_time: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM for time-of-day conditions; absent: now in the shop’s time zone.' })),
  cart_items: Type.Array(CartLineSchema, { minItems: 1, maxItems: MAX_CART_LINES }),
});

export const OrderBodySchema = Type.Object({ shop_id: ShopIdSchema, shop_secret: Secret, order_id: Text('The order id given to apply.') });
export const HistoryQuerySchema = Type.Object({ shop_id: ShopIdSchema, shop_secret: Secret, identifier: Text('The member’s phone or loyalty_id.') });

const Part = Type.Object({ total: Num, per_product: Num });
const Failed = Type.Array(Type.Object({ code: Type.String(), message: Type.String() }));
/** An amount and the same per unit (quantity 1), in currency units or bonuses. */
function Paid<N extends string>(name: N, what: string) {
  return {
    [name]: Type.Number({ description: `${what}, the whole line.` }),
    [`${name}_per_product`]: Type.Number({ description: `${what}, one unit.` }),
  } as Record<N | `${N}_per_product`, TNumber>;
}

/**
 * One line of the Checkout apply result (interface.md), every field. Exact: the answer is
 * serialised by a compiled serialiser (checkout.serializer.ts) that writes what is listed
 * here and nothing else, and checkout.mappers.ts builds the type of this schema.
 */
export const ItemSchema = Type.Object(
  {
    uniqid: Type.String(),
    product_id: Type.String(),
    name: Type.String({ description: 'From the feed; `---` when the product is not in it.' }),
    quantity: Type.Integer(),
    price: Num,
    total: Num,
    discountable: Type.Boolean(),
    bonusable: Type.Boolean(),
    rewardable: Type.Boolean(),
    ...Paid('paid_with_offers', 'What promotions took off'),
    ...Paid('paid_with_referral_discounts', 'What referral discounts took off'),
    ...Paid('paid_with_discounts', 'What the discount programme took off (0: there is none)'),
    ...Paid('paid_with_bonuses', 'The money bonuses pay'),
    ...Paid('paid_with_certificates', 'The money certificates pay'),
    ...Paid('bonuses_reward', 'The bonuses the line earns'),
    bonuses_reward_loyalty_program: Part,
    bonuses_reward_referral_program: Part,
    bonuses_reward_promotions: Type.Record(Type.String(), Part, { description: 'Keyed by promotion id.' }),
    certificates: Type.Record(
      Type.String(),
      Type.Object({ id: Type.Integer(), code: Type.String(), pool_id: Type.Union([Type.Integer(), Type.Null()]), amount: Num, amount_per_product: Num }),
      { description: 'Keyed by certificate id.' },
    ),
    ...Paid('bonuses_used', 'The bonuses charged for it'),
    ...Paid('total_after_discounts', 'The money left to pay, `total` minus every `paid_with_*`'),
    max_payable_by_bonuses: Type.Number({ description: 'The line’s bonus limit.' }),
  },
  { additionalProperties: false },
);

/** The Checkout apply result (docs/checkout.md), every field; exact as ItemSchema is. */
export const ResultSchema = Type.Object(
  {
    order_id: Type.String(),
    identifier: Type.String(),
    payment_type: Type.String(),
    products_total: Type.Integer(),
    order_total: Num,
    saved_total: Num,
    saved_by_discounts: Num,
    saved_by_bonuses: Num,
    saved_by_offers: Num,
    saved_by_certificates: Num,
    order_to_pay: Num,
    order_bonuses_to_charge: Num,
    bonuses_balance: Num,
    bonuses_reward: Num,
    bonuses_referrer_reward: Num,
    referrer_identifier: Type.Union([Type.String(), Type.Null()]),
    referral_program: Type.Integer({ description: "The referrer's programme (1), or 0 without a referral." }),
    applied_promotions: Type.Array(Type.Integer()),
    rewarded_stickers: Empty,
    used_stickers: Empty,
    stickers_balance: Empty,
    promo_codes: Type.Array(Type.String()),
    promo_codes_failed: Failed,
    certificates: Type.Array(Type.String()),
    certificates_failed: Failed,
    items: Type.Array(ItemSchema),
  },
  { additionalProperties: false, description: 'The Checkout apply result (docs/checkout.md, "The answer\'s fields").' },
);

const DuplicateSchema = Type.Object({ message: Type.String(), identifier: Type.String() }, { description: 'Two lines of one product id (HTTP 200).' });

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
export const HistoryResponseSchema: TSchema = Type.Object({ status: Type.Literal('success'), payload: Type.Object({ orders: Type.Array(OrderSchema) }) });
