import { statusSuccess } from '../../http/envelopes.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { answerPayload, orderBody } from './checkout.mappers.js';
import { checkoutAnswerSerializer } from './checkout.serializer.js';
import { readCheckoutRequest, readIdentifier, readOrderId } from './checkout.params.js';
import {
  CancelResponseSchema,
  CHECKOUT_TAGS,
  CheckoutBodySchema,
  HistoryQuerySchema,
  HistoryResponseSchema,
  OrderBodySchema,
  ResultResponseSchema,
} from './checkout.schemas.js';

/**
 * The loyalty checkout (interface.md endpoints 5 and 6, contract-notes "Loyalty checkout";
 * docs/checkout.md "Endpoints"): shop_id and shop_secret, the status envelope. Statuses
 * follow contract-notes "Secrets and errors": bad input 422, unknown member or order 404,
 * an order in a status that refuses the call 409; two lines of one product answer 200.
 */
export const checkoutRoutes: PublicRouteModule = (scope) => {
  const checkout = scope.services.checkout;
  const common = {
    validatorCompiler: noSchemaValidation,
    serializerCompiler: plainJson,
    config: { envelope: 'status', auth: 'shop+secret' },
  } as const;
  const DUPLICATE = 'Two lines of one product id answer HTTP 200 with `payload.message` and `payload.identifier`.';

  scope.post(
    '/loyalty/checkout/estimate',
    {
      ...common,
      serializerCompiler: checkoutAnswerSerializer,
      schema: {
        tags: CHECKOUT_TAGS,
        summary: 'Compute a cart’s discounts, bonuses, certificates and reward without holding anything',
        description: `The same body as apply; order_id is optional and nothing is stored or held. ${DUPLICATE}`,
        body: CheckoutBodySchema,
        response: statusResponses(ResultResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const answer = await checkout.estimate(shop, readCheckoutRequest(request.input, { orderRequired: false }));
      return statusSuccess({ payload: answerPayload(answer) });
    },
  );

  scope.post(
    '/loyalty/checkout/apply',
    {
      ...common,
      serializerCompiler: checkoutAnswerSerializer,
      schema: {
        tags: CHECKOUT_TAGS,
        summary: 'Create the order and hold its bonuses, promo codes and certificates',
        description:
          'Creates the order (created) and holds what it uses; a repeat for a created order recomputes and replaces ' +
          `its holds; a completed or cancelled order: 409. ${DUPLICATE}`,
        body: CheckoutBodySchema,
        response: statusResponses(ResultResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const answer = await checkout.apply(shop, readCheckoutRequest(request.input, { orderRequired: true }));
      return statusSuccess({ payload: answerPayload(answer) });
    },
  );

  scope.post(
    '/loyalty/checkout/confirm',
    {
      ...common,
      serializerCompiler: checkoutAnswerSerializer,
      schema: {
        tags: CHECKOUT_TAGS,
        summary: 'Confirm an order: spend its holds and credit the reward, once',
        description:
          'created → completed. A completed order answers the same result again and never rewards twice; a ' +
          'cancelled one: 409 `Could not confirm order in its current status`; unknown: 404 `Order is not found`.',
        body: OrderBodySchema,
        response: statusResponses(ResultResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      return statusSuccess({ payload: answerPayload(await checkout.confirm(shop.shopId, readOrderId(request.input))) });
    },
  );

  scope.post(
    '/loyalty/checkout/cancel',
    {
      ...common,
      schema: {
        tags: CHECKOUT_TAGS,
        summary: 'Cancel an order: release its holds, or refund a completed one',
        description:
          'created: everything held is released; completed: spent bonuses go back to their lots, certificates get ' +
          'their amounts back, code uses are given back and the reward is taken back. Cancelled is final: 409.',
        body: OrderBodySchema,
        response: statusResponses(CancelResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const order = await checkout.cancel(shop.shopId, readOrderId(request.input));
      return statusSuccess({ payload: { order_id: order.orderId, status: order.status } });
    },
  );

  scope.get(
    '/loyalty/checkout/history',
    {
      ...common,
      schema: {
        tags: CHECKOUT_TAGS,
        summary: 'A member’s loyalty orders, newest first',
        description: 'Every status. An identifier that names no member: 404 `Loyalty program member is not found`.',
        querystring: HistoryQuerySchema,
        response: statusResponses(HistoryResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const orders = await checkout.history(shop.shopId, readIdentifier(request.input));
      return statusSuccess({ payload: { orders: orders.map(orderBody) } });
    },
  );
};
