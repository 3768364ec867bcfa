import { successTrue } from '../../http/envelopes.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { LOYALTY_TAGS } from './loyalty.schemas.js';
import { statusPayload, subscriptionOrderBody } from './subscriptions.mappers.js';
import { readOrdersQuery, readSubscriptionQuery } from './subscriptions.params.js';
import { OrdersQuerySchema, OrdersResponses, StatusQuerySchema, StatusResponses } from './subscriptions.schemas.js';

/**
 * The paid-subscription reads (interface.md endpoints 2 and 4; docs/subscriptions.md):
 * a server with the shop secret reads a member's status and benefits, and its orders.
 * The success envelope: `success: true`, or `success: false` with one sentence at the
 * status of contract-notes "Secrets and errors" (unknown member or subscription 404).
 */
export const paidSubscriptionRoutes: PublicRouteModule = (scope) => {
  const members = scope.services.subscriptionMembers;
  const common = { validatorCompiler: noSchemaValidation, config: { envelope: 'success', auth: 'shop+secret' } } as const;

  scope.get(
    '/loyalty/subscriptions/members/status',
    {
      ...common,
      schema: {
        tags: LOYALTY_TAGS,
        summary: "A subscription member's status, benefits and what is left of them this period",
        description:
          'An identifier that names no loyalty member: 404 `Loyalty program member is not found`; an unknown ' +
          'subscription, or a member not subscribed to it: 404. `active` is false once paid_till is past.',
        querystring: StatusQuerySchema,
        response: StatusResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const query = readSubscriptionQuery(request.input);
      return successTrue({ payload: statusPayload(await members.status(shop, query.subscription, query.identifier)) });
    },
  );

  scope.get(
    '/loyalty/subscriptions/orders',
    {
      ...common,
      schema: {
        tags: LOYALTY_TAGS,
        summary: "A subscription member's orders, newest first",
        description:
          'Checkout orders applied with this subscription, every status, within date_from and date_to (days of the ' +
          "shop's time zone, both included). `discounts` holds the order's savings.",
        querystring: OrdersQuerySchema,
        response: OrdersResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const query = readOrdersQuery(request.input);
      const orders = await members.orders(shop, query.subscription, query.identifier, query);
      return successTrue({ payload: { message: 'Orders of the subscription member', orders: orders.map(subscriptionOrderBody) } });
    },
  );
};
