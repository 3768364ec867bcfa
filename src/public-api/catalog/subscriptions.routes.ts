import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { StatusErrorSchema, statusSuccess, StatusSuccessSchema } from '../../http/envelopes.js';
import type { SubscriptionKind } from '../../modules/product-subscriptions/product-subscriptions.types.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { PRODUCT_NOT_FOUND } from '../../modules/catalog/products.service.js';
import { DEVICE_NOT_FOUND } from '../common/identity.params.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { toSubscribeInput, toUnsubscribeInput } from './subscriptions.params.js';

const TAGS = ['catalog'];
const RESPONSES = { 200: StatusSuccessSchema({}), '4xx': StatusErrorSchema, '5xx': StatusErrorSchema };

const Customer = {
  shop_id: Type.String({ description: 'The shop id: 30 hexadecimal characters.' }),
  did: Type.Optional(
    Type.String({ description: 'Device id (identifier group): 8 to 64 characters [A-Za-z0-9-], registered by GET /init.' }),
  ),
  email: Type.Optional(Type.String({ description: 'Email (identifier group).' })),
  phone: Type.Optional(Type.String({ description: 'Phone (identifier group).' })),
};
const SubscribeBody = (price: boolean) =>
  Type.Object(
    {
      ...Customer,
      item_id: Type.String({ description: 'Offer id of the served catalog (alias `item`).' }),
      ...(price && {
        price: Type.Optional(
          Type.Number({ description: 'The price seen or wanted; an alert fires below it. Default: the current price.' }),
        ),
      }),
    },
    { additionalProperties: true, description: 'In the query string, a JSON body or a form; the body wins.' },
  );
const UnsubscribeBody = Type.Object(
  {
    ...Customer,
    item_ids: Type.Optional(Type.Array(Type.String(), { description: 'Offer ids; absent or empty = every product.' })),
  },
  { additionalProperties: true },
);

const ROUTES: ReadonlyArray<{ path: string; kind: SubscriptionKind; subscribe: boolean; summary: string }> = [
  {
    path: '/subscriptions/subscribe_for_product_available',
    kind: 'back_in_stock',
    subscribe: true,
    summary: 'Subscribe to a product coming back in stock',
  },
  {
    path: '/subscriptions/subscribe_for_product_price',
    kind: 'price_drop',
    subscribe: true,
    summary: 'Subscribe to a product’s price drop',
  },
  {
    path: '/subscriptions/unsubscribe_from_product_available',
    kind: 'back_in_stock',
    subscribe: false,
    summary: 'Cancel back-in-stock subscriptions',
  },
  {
    path: '/subscriptions/unsubscribe_from_product_price',
    kind: 'price_drop',
    subscribe: false,
    summary: 'Cancel price-drop subscriptions',
  },
];

/**
 * Product subscriptions (issue 4 part 6): a subscription fires once, when a feed import
 * makes the product available or cheaper than the subscribed price; active ones are
 * counted in GET /products/counters `triggers`. Decisions: docs/catalog-read.md.
 */
export const subscriptionRoutes: PublicRouteModule = (scope) => {
  const subscriptions = scope.services.productSubscriptions;

  for (const route of ROUTES) {
    scope.post(
      route.path,
      {
        config: { envelope: 'status', auth: 'shop' },
        validatorCompiler: noSchemaValidation,
        schema: {
          tags: TAGS,
          summary: route.summary,
          body: route.subscribe ? SubscribeBody(route.kind === 'price_drop') : UnsubscribeBody,
          response: RESPONSES,
        },
      },
      async (request) => {
        const shop = authenticatedShop(request);
        const result = route.subscribe
          ? await subscriptions.subscribe(toSubscribeInput(request.input, shop.shopId, route.kind))
          : await subscriptions.unsubscribe(toUnsubscribeInput(request.input, shop.shopId, route.kind));
        if (result.ok) return statusSuccess();
        if (result.reason === 'unknown_device') throw new AppError('NOT_FOUND', DEVICE_NOT_FOUND);
        if (result.reason === 'unknown_product') throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND);
        throw new AppError('VALIDATION_FAILED', 'Parameter `price` is required.', { field: 'price' });
      },
    );
  }
};
