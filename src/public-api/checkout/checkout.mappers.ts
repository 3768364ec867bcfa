import type { CheckoutAnswer, CheckoutOrder } from '../../modules/checkout/checkout.types.js';
import { resultBody } from '../../modules/checkout/domain/result-body.js';
import { toUnits } from '../../modules/loyalty/domain/amount.js';

/**
 * The checkout's answers in the contract's shapes (interface.md "Checkout apply result"
 * and "Order"; contract-notes "Loyalty checkout"): snake_case, and every amount — money
 * in kopecks, bonuses in hundredths — as a number of currency units or bonuses. The
 * result itself is the checkout module's resultBody, which the admin API's order read
 * answers with too.
 */

/** The payload of estimate, apply and confirm; the duplicate-product answer as contract-notes words it. */
export function answerPayload(answer: CheckoutAnswer) {
  if (!answer.ok) return { message: 'Cart contains line items with the same product ID', identifier: answer.identifier };
  return resultBody(answer);
}

/** interface.md "Order", without `discounts` (loyalty history). */
export function orderBody(order: CheckoutOrder) {
  const { result } = order.calculation;
  return {
    id: order.orderId,
    date: new Date(order.createdAt).toISOString(),
    status: order.status,
    total: toUnits(result.orderToPay).toFixed(2),
    items: result.items.map((it) => ({
      id: it.productId,
      name: it.name,
      quantity: it.quantity,
      price: toUnits(it.totalAfterDiscountsPerProduct),
    })),
  };
}
