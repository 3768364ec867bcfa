// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { StatusSuccessSchema } from '../../http/envelopes.js';
import { COLLECTION_ID_MAX_LENGTH } from '../../modules/collections/domain/collection.js';
import { ProductSchema } from '../../modules/catalog/domain/product.schema.js';
import { MAX_ORDERS_ANSWERED } from '../../modules/shopper-view/shopper-view.service.js';
import { ShopIdSchema } from '../common/common.schemas.js';

/**
 * The OpenAPI description of what an app reads of its customer (GET /products/cart,
 * GET /orders/by_user, GET /orders/last_for_user) and of GET /collection/{id}, in the
 * shapes the mobile SDK parses. Parameters are checked by shopper.params.ts in the
 * contract's order (credentials first), so these schemas document; the routes compile
 * them with noSchemaValidation. Decisions: docs/shopper-reads.md.
 */

export const SHOPPER_TAGS = ['shopper'];

const Did = Type.String({ description: 'Device id: 8 to 64 characters of `[A-Za-z0-9-]`.' });
const Sid = Type.String({ description: 'Session id (accepted, not used).' });
const Text = (description: string) => Type.String({ description });
const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Money = (description: string) =>
  Type.Union([Type.String({ pattern: '^\\d+\\.\\d{1,2}$' }), Type.Null()], {
    description: `${description}: a decimal string in currency units (\`8500.0\`, \`12.05\`), null when unknown.`,
  });

export const CartQuerySchema = Type.Object(
  { shop_id: ShopIdSchema, did: Did, sid: Type.Optional(Sid), seance: Type.Optional(Sid) },
  { additionalProperties: true },
);

const CartItemSchema = Type.Object({
  uniqid: Text('Offer id (article).'),
  quantity: Type.Integer({ description: 'How many are in the cart.' }),
  price: Type.Optional(Type.Number({ description: 'The price the cart event gave, when it gave one.' })),
  line_id: Type.Optional(Text('Line id the cart event gave.')),
  fashion_size: Type.Optional(Text('Size the cart event gave.')),
  product: Type.Union([ProductSchema, Type.Null()], {
    description: 'The product from the served catalog; null when the feed does not have it (any more).',
  }),
});

export const CartResponseSchema = StatusSuccessSchema({
  data: Type.Object({ items: Type.Array(CartItemSchema, { description: 'The cart in its order, newest additions last.' }) }),
});

const identifierFields = {
  did: Type.Optional(Did),
  sid: Type.Optional(Sid),
  email: Type.Optional(Text('Customer email.')),
  phone: Type.Optional(Text('Customer phone.')),
  loyalty_id: Type.Optional(Text('Loyalty programme id.')),
  external_id: Type.Optional(Text('The shop’s own customer id.')),
  telegram_id: Type.Optional(Text('Telegram id.')),
};

export const OrdersQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: Type.String({ description: 'The secret API key.' }),
    ...identifierFields,
    date_from: Type.Optional(
      Type.String({ format: 'date', description: 'Only orders made on this day (the shop’s timezone) or later: YYYY-MM-DD.' }),
    ),
  },
  { additionalProperties: true },
);

export const LastOrderQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.Optional(Did),
    sid: Type.Optional(Sid),
    external_id: Type.Optional(Text('The shop’s own customer id.')),
    telegram_id: Type.Optional(Text('Telegram id.')),
  },
  { additionalProperties: true },
);

const OrderItemSchema = Type.Object({
  amount: Type.Integer({ description: 'Quantity bought.' }),
  price: Money('Price of one unit as the purchase gave it'),
  status: Type.Null({ description: 'Line status: not tracked, always null.' }),
  original_price: Type.Null({ description: 'Not tracked, always null.' }),
  barcode: NullableText('The product’s barcode from the served catalog.'),
  line_id: NullableText('Line id the purchase gave.'),
  fashion_size: NullableText('Size the purchase gave.'),
  item: Type.Union([ProductSchema, Type.Null()], {
    description: 'The product from the served catalog; null when the feed does not have it (any more).',
  }),
});

const OrderSchema = Type.Object({
  _id: Type.Integer({ description: 'Patron’s own order number, per shop.' }),
  id: NullableText('The shop’s order_id; null when the purchase had none.'),
  date: Type.String({ format: 'date-time', description: 'When the purchase was recorded (UTC).' }),
  value: Money('The order total: order_price when given, else Σ price × amount'),
  cash_value: Money('Paid in cash (order_cash)'),
  bonuses_value: Money('Paid with bonuses (order_bonuses)'),
  delivery_value: Money('Delivery cost (order_delivery)'),
  discount_value: Money('Discount (order_discount)'),
  promocode: NullableText('Promo code.'),
  internal_status: Type.Null({ description: 'Tracked purchases have no status: always null.' }),
  order_status: Type.Null({ description: 'Tracked purchases have no status: always null.' }),
  offline: Type.Boolean({ description: 'Always false: the order came through the API.' }),
  stream: NullableText('The purchase event’s stream.'),
  channel: NullableText('Sales channel (channel).'),
  tax_free: Type.Boolean({ description: 'tax_free as sent; false when not sent.' }),
  gift_package: Type.Boolean({ description: 'gift_package as sent; false when not sent.' }),
  delivery_type: NullableText('Delivery type.'),
  delivery_address: NullableText('Delivery address.'),
  payment_type: NullableText('Payment type.'),
  custom_properties: Type.Record(Type.String(), Type.Unknown(), { description: 'The purchase’s `custom` object; {} when none.' }),
  items: Type.Array(OrderItemSchema),
});

export const OrdersResponseSchema = StatusSuccessSchema({
  data: Type.Object({
    orders: Type.Array(OrderSchema, { description: `The newest ${MAX_ORDERS_ANSWERED} orders at most, newest first.` }),
  }),
});

export const LastOrderResponseSchema = Type.Array(ProductSchema, {
  description: 'The products of the customer’s newest order that the served catalog has, in the order’s item order; [] without orders.',
});

export const CollectionParamsSchema = Type.Object({
  id: Type.String({ description: `Collection id set in the admin API: 1 to ${COLLECTION_ID_MAX_LENGTH} of [A-Za-z0-9_-].` }),
});

export const CollectionQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    location: Type.Optional(Text('A location code: only products sold there (or everywhere).')),
    did: Type.Optional(Did),
    email: Type.Optional(Text('Accepted for compatibility; collections are not personalised.')),
  },
  { additionalProperties: true },
);

export const CollectionResponseSchema = Type.Object({
  products: Type.Array(ProductSchema, {
    description: 'The collection’s products that the served catalog has, in the collection’s order.',
  }),
});
