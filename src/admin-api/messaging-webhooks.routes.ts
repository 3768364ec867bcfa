import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';

const tags = ['messaging'];

const WebhookSecretSchema = Type.Object({
  secret: Type.String({ description: "The Bearer token of the shop's bounce webhooks" }),
  bounce_url: Type.String({ description: 'POST JSON bounces and complaints here' }),
  dsn_url: Type.String({ description: 'POST raw RFC 3464 delivery status reports here' }),
});

/**
 * The shop's bounce webhook credential (docs/messaging.md, "Bounces and complaints"). It is
 * derived from the secret key and the shop id, so nothing is stored; it changes only with
 * PATRON_SECRET_KEY (or the key file).
 */
export const messagingWebhooksRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { messageOutcomes, shops } = app.services;

  app.get(
    '/shops/:shop_id/messaging/webhook',
    {
      schema: {
        tags,
        summary: 'The bounce webhook addresses and their secret',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: WebhookSecretSchema }, [404]),
      },
    },
    async (request) => {
      const shopId = request.params.shop_id;
      await shops.requireShop(shopId);
      const prefix = messageOutcomes.webhookBase(shopId);
      return { secret: await messageOutcomes.webhookSecret(shopId), bounce_url: `${prefix}/bounce`, dsn_url: `${prefix}/dsn` };
    },
  );

  done();
};
