import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticateAdminRequest, authorizeAdminRequest } from './admin-auth.js';
import { settingsChangeHook } from './settings-change.hook.js';
import { auditCapture } from './audit-capture.hook.js';
import { auditRoutes } from './audit.routes.js';
import { dashboardsRoutes } from './dashboards.routes.js';
import { collectionsRoutes } from './collections.routes.js';
import { checkStorableValue, decodeBody, invalidBytesError } from '../http/text-rule.js';
import { customEventsRoutes } from './custom-events.routes.js';
import { customPropertiesRoutes } from './custom-properties.routes.js';
import { adminErrorHandler } from './error-handler.js';
import { eventsRoutes } from './events.routes.js';
import { feedRoutes } from './feed.routes.js';
import { importsRoutes } from './imports.routes.js';
import { loyaltyRoutes } from './loyalty.routes.js';
import { loyaltyMembersRoutes } from './loyalty-members.routes.js';
import { loyaltyLevelsRoutes } from './loyalty-levels.routes.js';
import { loyaltyRewardsRoutes } from './loyalty-rewards.routes.js';
import { messagingRoutes } from './messaging.routes.js';
import { channelsRoutes } from './channels.routes.js';
import { deliveryLogRoutes } from './delivery-log.routes.js';
import { messagingWebhooksRoutes } from './messaging-webhooks.routes.js';
import { profilesRoutes } from './profiles.routes.js';
import { bulkRoutes } from './bulk.routes.js';
import { certificatesRoutes } from './certificates.routes.js';
import { checkoutOrdersRoutes } from './checkout-orders.routes.js';
import { promoCodesRoutes } from './promo-codes.routes.js';
import { promotionsRoutes } from './promotions.routes.js';
import { segmentsRoutes } from './segments.routes.js';
import { shopsRoutes } from './shops.routes.js';
import { recommendationBlocksRoutes } from './recommendation-blocks.routes.js';
import { storiesRoutes } from './stories.routes.js';
import { recommendationPreviewRoutes } from './recommendation-preview.routes.js';
import { recommendationsRoutes } from './recommendations.routes.js';
import { popupsRoutes } from './popups.routes.js';
import { npsRoutes } from './nps.routes.js';
import { slidersRoutes } from './sliders.routes.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { chainsRoutes } from './chains.routes.js';
import { templatesRoutes } from './templates.routes.js';
import { catalogListsRoutes } from './catalog-lists.routes.js';
import { customersRoutes } from './customers.routes.js';
import { invitationsRoutes } from './invitations.routes.js';
import { sessionRoutes } from './session.routes.js';
import { usersRoutes } from './users.routes.js';

/**
 * The admin scope, registered under /admin/v1 (admin-api.md). Encapsulated: its token
 * check, error envelope and body parsers apply to its routes only, never to the public
 * scope. Resource route files register inside it; a route that speaks another format
 * (the XML feed) adds its parser in its own plugin.
 */
export const adminApiPlugin: FastifyPluginAsyncTypebox = async (app) => {
  app.setErrorHandler(adminErrorHandler);

  // The admin API speaks JSON. text/plain (a Fastify default) would only turn a wrong
  // Content-Type into a confusing schema error, so it is refused with 415 instead.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Tools often send `Content-Type: application/json` on a POST without a body (secret
  // rotation); an empty body counts as no body rather than as malformed JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Bytes, so that text that is not UTF-8 is refused naming its field (http/text-rule.ts).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const { text, notUtf8 } = decodeBody(body as Buffer);
    if (text === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, (error, value) => {
      if (!error && notUtf8) done(invalidBytesError(value, 'admin'), undefined);
      else done(error, value);
    });
  });

  // The text rule of every input (http/text-rule.ts), before schema validation: no NUL,
  // no text that is not UTF-8, no nesting deeper than the rule's bound, anywhere.
  app.addHook('preValidation', (request, _reply, next) => {
    try {
      checkStorableValue(request.params, 'params');
      checkStorableValue(request.query, 'querystring');
      checkStorableValue(request.body, 'body');
    } catch (error) {
      next(error as Error);
      return;
    }
    next();
  });

  // onRequest runs before the body is read: an unauthenticated caller costs no parsing.
  // The address limit, then the credential (admin-auth.ts): an address that spent its
  // wrong tokens is refused whatever it sends, until its window ends (docs/limits.md).
  app.addHook('onRequest', async (request) => {
    app.limits.checkAddress(request.ip);
    await authenticateAdminRequest(app, request);
  });
  // Who may do what, in one place (docs/admin-users.md "Roles"), before validation.
  app.addHook('preValidation', async (request) => authorizeAdminRequest(app, request, app.prefix));
  app.addHook('onSend', settingsChangeHook(app));
  // The audit log (docs/audit-log.md): the state before a change, then the entry, written before the answer leaves.
  const audit = auditCapture(app);
  app.addHook('preHandler', audit.preHandler);
  app.addHook('onSend', audit.onSend);

  await app.register(shopsRoutes);
  await app.register(customEventsRoutes);
  await app.register(profilesRoutes);
  await app.register(eventsRoutes);
  await app.register(feedRoutes);
  await app.register(slidersRoutes);
  await app.register(recommendationBlocksRoutes);
  await app.register(recommendationsRoutes);
  await app.register(recommendationPreviewRoutes);
  await app.register(popupsRoutes);
  await app.register(npsRoutes);
  await app.register(segmentsRoutes);
  await app.register(customPropertiesRoutes);
  await app.register(importsRoutes);
  await app.register(loyaltyRoutes);
  await app.register(loyaltyMembersRoutes);
  await app.register(loyaltyLevelsRoutes);
  await app.register(loyaltyRewardsRoutes);
  await app.register(collectionsRoutes);
  await app.register(promotionsRoutes);
  await app.register(promoCodesRoutes);
  await app.register(certificatesRoutes);
  await app.register(checkoutOrdersRoutes);
  await app.register(subscriptionsRoutes);
  await app.register(messagingRoutes);
  await app.register(templatesRoutes);
  await app.register(channelsRoutes);
  await app.register(deliveryLogRoutes);
  await app.register(messagingWebhooksRoutes);
  await app.register(walletRoutes);
  await app.register(webhooksRoutes);
  await app.register(chainsRoutes);
  await app.register(bulkRoutes);
  await app.register(auditRoutes);
  await app.register(dashboardsRoutes);
  await app.register(catalogListsRoutes);
  await app.register(customersRoutes);
  await app.register(sessionRoutes);
  await app.register(invitationsRoutes);
  await app.register(usersRoutes);
  await app.register(storiesRoutes);
};
