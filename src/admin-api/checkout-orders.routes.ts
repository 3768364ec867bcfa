import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutOrder } from '../modules/checkout/checkout.types.js';
import { resultBody } from '../modules/checkout/domain/result-body.js';
import { toUnits } from '../modules/loyalty/domain/amount.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { OrderDetailSchema, OrderListQuerySchema, OrderListSchema, OrderParamsSchema } from './checkout-orders.schemas.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['checkout'];
const DEFAULT_PAGE = 50;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function summary(order: CheckoutOrder) {
  const { result, holds } = order.calculation;
  return {
    order_id: order.orderId,
    status: order.status,
    identifier: order.identifier,
    order_total: toUnits(result.orderTotal),
    order_to_pay: toUnits(result.orderToPay),
    bonuses_charged: toUnits(holds.bonuses),
    bonuses_reward: toUnits(result.bonusesReward),
    subscription: order.subscription,
    bonus_hold_id: order.bonusHoldId,
    reward_transaction_id: order.rewardTransactionId,
    created_at: new Date(order.createdAt).toISOString(),
    updated_at: new Date(order.updatedAt).toISOString(),
    completed_at: iso(order.completedAt),
    cancelled_at: iso(order.cancelledAt),
  };
}

/** Loyalty checkout orders (issue 14 part 6; docs/checkout.md "Admin API"): a list and one order with its whole calculation. */
export const checkoutOrdersRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const checkout = app.services.checkout;

  app.get(
    '/shops/:shop_id/orders',
    {
      schema: {
        tags,
        summary: 'List loyalty checkout orders, newest first, by status or member',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: OrderListQuerySchema,
        response: withErrors({ 200: OrderListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const { status, identifier, after, limit } = request.query;
      const page = await checkout.listOrders(request.params.shop_id, { status, identifier, after, limit: limit ?? DEFAULT_PAGE });
      return { orders: page.orders.map(summary), next_after: page.nextAfter };
    },
  );

  app.get(
    '/shops/:shop_id/orders/:order_id',
    {
      schema: {
        tags,
        summary: 'Read a loyalty checkout order with the calculation it stored',
        security: ADMIN_SECURITY,
        params: OrderParamsSchema,
        response: withErrors({ 200: OrderDetailSchema }, [404]),
      },
    },
    async (request) => {
      const order = await checkout.getOrder(request.params.shop_id, request.params.order_id);
      const { result, holds } = order.calculation;
      return {
        ...summary(order),
        request: order.request,
        calculation: resultBody({
          orderId: order.orderId,
          identifier: order.identifier ?? '',
          paymentType: order.request.paymentType ?? '',
          result,
        }),
        holds,
      };
    },
  );

  done();
};
