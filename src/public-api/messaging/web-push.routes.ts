// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { statusSuccess, StatusSuccessSchema } from '../../http/envelopes.js';
import { authenticatedShop, hasShopSecret } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { readCustomer } from '../common/identity.params.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { StatusOkSchema, statusResponses } from '../common/envelopes.schemas.js';
import { readEndpoint, readSubscription } from './web-push.params.js';

const TAGS = ['messaging'];
const Optional = (description: string) => Type.Optional(Type.String({ description }));
const SubscriptionFields = {
  endpoint: Type.String({ description: 'PushSubscription.endpoint: an https URL of the browser’s push service.' }),
  keys: Type.Object({
    p256dh: Type.String({ description: 'The browser’s P-256 public key, uncompressed (65 bytes), base64url.' }),
    auth: Type.String({ description: 'The browser’s authentication secret (16 bytes), base64url.' }),
  }),
};

/**
 * Browser push subscriptions (docs/messaging-push.md, "Web push subscriptions"): a site's
 * service worker reads the shop's VAPID public key, subscribes with it, and posts the
 * subscription here for the device's customer. Shop id only, like /mobile_push_tokens;
 * identifiers without a device need the shop's secret (common/identity.params.ts readCustomer).
 */
export const webPushRoutes: PublicRouteModule = (scope) => {
  const webPush = scope.services.webPush;
  const common = { validatorCompiler: noSchemaValidation } as const;

  scope.get(
    '/web_push/vapid_public_key',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: TAGS,
        summary: 'The shop’s VAPID public key',
        description: 'The applicationServerKey for pushManager.subscribe. 404 when the shop has no web_push channel.',
        querystring: Type.Object({ shop_id: ShopIdSchema }, { additionalProperties: true }),
        response: statusResponses(StatusSuccessSchema({ public_key: Type.String() })),
      },
    },
    async (request) => statusSuccess({ public_key: await webPush.publicKey(authenticatedShop(request).shopId) }),
  );

  scope.post(
    '/web_push/subscriptions',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: TAGS,
        summary: 'Store a browser’s push subscription',
        description:
          'The subscription (PushSubscription.toJSON(), at the top level or under `subscription`) becomes a web push ' +
          'address of the device’s customer (`did`; identifiers given with it are linked), or, with `shop_secret`, of ' +
          'the customer holding the identifiers. The same endpoint again replaces the keys and the owner.',
        body: Type.Object(
          {
            shop_id: ShopIdSchema,
            did: Optional('Device id, as /init issued it.'),
            shop_secret: Optional('The shop secret: needed to name the customer by identifiers alone.'),
            email: Optional('Email of the customer.'),
            phone: Optional('Phone of the customer.'),
            ...SubscriptionFields,
          },
          { additionalProperties: true },
        ),
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const subscription = readSubscription(request.input);
      const customer = readCustomer(request.input, await hasShopSecret(request));
      await webPush.subscribe(shop.shopId, customer, subscription);
      return statusSuccess();
    },
  );

  scope.delete(
    '/web_push/subscriptions',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: TAGS,
        summary: 'Drop a browser’s push subscription',
        description: 'After PushSubscription.unsubscribe(): the endpoint gets no more messages. An unknown endpoint is not an error.',
        querystring: Type.Object({ shop_id: ShopIdSchema, endpoint: SubscriptionFields.endpoint }, { additionalProperties: true }),
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      await webPush.unsubscribe(shop.shopId, readEndpoint(request.input));
      return statusSuccess();
    },
  );
};
