import { statusSuccess } from '../../http/envelopes.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { readRequiredDid } from '../common/identity.params.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { toCartItem, toOrderBodies } from './shopper.mappers.js';
import { readCollectionId, readDateFrom, readLastOrderLookup, readLocation, readOrdersLookup } from './shopper.params.js';
import {
  CartQuerySchema,
  CartResponseSchema,
  CollectionParamsSchema,
  CollectionQuerySchema,
  CollectionResponseSchema,
  LastOrderQuerySchema,
  LastOrderResponseSchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
  SHOPPER_TAGS,
} from './shopper.schemas.js';

/**
 * What the mobile SDK reads of its customer and of the shop's collections: GET
 * /products/cart, /orders/by_user, /orders/last_for_user and /collection/{id}, in the
 * shapes it parses. Errors answer in the status envelope; statuses follow
 * contract-notes "Secrets and errors". Decisions: docs/shopper-reads.md.
 */
export const shopperRoutes: PublicRouteModule = (scope) => {
  const { shopperView, collections } = scope.services;

  scope.get(
    '/products/cart',
    {
      config: { envelope: 'status', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SHOPPER_TAGS,
        summary: 'The device’s cart with product data',
        description:
          'The cart tracking keeps from cart, remove_from_cart and purchase events of the device’s customer. ' +
          'An unknown well-formed did is 404 `Device not found`.',
        querystring: CartQuerySchema,
        response: statusResponses(CartResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const lines = await shopperView.cartOf(shop, readRequiredDid(request.input));
      return statusSuccess({ data: { items: lines.map(toCartItem) } });
    },
  );

  scope.get(
    '/orders/by_user',
    {
      config: { envelope: 'status', auth: 'shop+secret' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SHOPPER_TAGS,
        summary: 'A customer’s orders',
        description:
          'Orders recorded from purchase events, newest first, with product data. The customer is named by an ' +
          'identifier when one is given (all given must match), otherwise by the did; unknown: 404.',
        querystring: OrdersQuerySchema,
        response: statusResponses(OrdersResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const lookup = readOrdersLookup(request.input);
      const since = readDateFrom(request.input, shop.timezone);
      const result = await shopperView.ordersOf(shop, lookup, since);
      return statusSuccess({ data: { orders: toOrderBodies(result) } });
    },
  );

  scope.get(
    '/orders/last_for_user',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SHOPPER_TAGS,
        summary: 'The products of a customer’s last order',
        description:
          'A bare array of the products of the newest order (did, external_id or telegram_id name the customer); ' +
          'products the feed no longer has are left out. Errors answer in the status envelope.',
        querystring: LastOrderQuerySchema,
        response: statusResponses(LastOrderResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      return shopperView.lastOrderProducts(shop, readLastOrderLookup(request.input));
    },
  );

  scope.get<{ Params: { id?: string } }>(
    '/collection/:id',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SHOPPER_TAGS,
        summary: 'A product collection',
        description:
          'The products of a collection kept in the admin API, in its order, with data from the served catalog; ' +
          'products the feed lacks are left out. An unknown collection is 404 `Collection not found`.',
        params: CollectionParamsSchema,
        querystring: CollectionQuerySchema,
        response: statusResponses(CollectionResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const id = readCollectionId(request.params.id);
      const products = await collections.collectionProducts(shop, id, readLocation(request.input));
      return { products };
    },
  );
};
