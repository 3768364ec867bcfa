import type { Static } from '@sinclair/typebox';
import type { Product } from '../../modules/catalog/domain/product.schema.js';
import type { CartLine, CustomerOrders } from '../../modules/shopper-view/shopper-view.service.js';
import { toMinorUnits } from '../../modules/tracking/domain/money.js';
import type { TrackedOrder } from '../../modules/tracking/tracking.types.js';
import type { CartResponseSchema, OrdersResponseSchema } from './shopper.schemas.js';

/**
 * The shopper reads in the platform's shapes (docs/shopper-reads.md). Money leaves as
 * the decimal strings the mobile SDK keeps as text (`"8500.0"`, `"12.05"`): minor units
 * inside, converted here.
 */

type CartItem = Static<typeof CartResponseSchema>['data']['items'][number];
type OrderBody = Static<typeof OrdersResponseSchema>['data']['orders'][number];

export function toCartItem(line: CartLine): CartItem {
  const { item, product } = line;
  return {
    uniqid: item.id,
    quantity: item.amount,
    ...(item.price !== undefined && { price: item.price }),
    ...(item.line_id !== undefined && { line_id: item.line_id }),
    ...(item.fashion_size !== undefined && { fashion_size: item.fashion_size }),
    product,
  };
}

export function toOrderBodies(result: CustomerOrders): OrderBody[] {
  return result.orders.map((order) => toOrderBody(order, result.products));
}

function toOrderBody(order: TrackedOrder, products: ReadonlyMap<string, Product>): OrderBody {
  return {
    _id: order.id,
    id: order.orderId,
    date: new Date(order.createdAt).toISOString(),
    value: decimalText(order.orderPrice ?? order.itemsTotal),
    cash_value: decimalText(order.orderCash),
    bonuses_value: decimalText(order.orderBonuses),
    delivery_value: decimalText(order.orderDelivery),
    discount_value: decimalText(order.orderDiscount),
    promocode: order.promocode,
    internal_status: null,
    order_status: null,
    offline: false,
    stream: order.stream,
    channel: order.channel,
    tax_free: order.taxFree === true,
    gift_package: order.giftPackage === true,
    delivery_type: order.deliveryType,
    delivery_address: order.deliveryAddress,
    payment_type: order.paymentType,
    custom_properties: { ...(order.custom ?? {}) },
    items: order.items.map((item) => {
      const product = products.get(item.id) ?? null;
      return {
        amount: item.amount,
        price: item.price === undefined ? null : decimalText(toMinorUnits(item.price) ?? null),
        status: null,
        original_price: null,
        barcode: product?.barcode ?? null,
        line_id: item.line_id ?? null,
        fashion_size: item.fashion_size ?? null,
        item: product,
      };
    }),
  };
}

/** Minor units as a decimal string with at least one fractional digit: 850000 → `8500.0`, 1205 → `12.05`. */
export function decimalText(minor: number | null): string | null {
  if (minor === null) return null;
  const whole = Math.floor(minor / 100);
  const cents = minor % 100;
  if (cents === 0) return `${whole}.0`;
  return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${String(cents).padStart(2, '0')}`;
}
