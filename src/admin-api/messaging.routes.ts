import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';
import type { Mailing } from '../modules/messaging/mailings.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  ChannelParamsSchema,
  ChannelSettingsSchema,
  DeliveryLogSchema,
  MailingListQuerySchema,
  MailingListSchema,
  MailingParamsSchema,
  MailingSchema,
  MessagesQuerySchema,
  PreviewBodySchema,
  PreviewSchema,
  PutMailingBodySchema,
  TestSendBodySchema,
  TestSendSchema,
  VapidKeysBodySchema,
} from './messaging.schemas.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['messaging'];

/** admin-api.md, "Messaging": channel settings, transactional mailings with preview and test send, the delivery log. */
export const messagingRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { messagingChannels, mailings, transact, messageHistory, shops, webPush } = app.services;

  app.put(
    '/shops/:shop_id/channels/:channel',
    {
      schema: {
        tags,
        summary: "Set a channel's provider settings",
        description: 'Validated by the vendor; secrets are stored encrypted and answered masked.',
        security: ADMIN_SECURITY,
        params: ChannelParamsSchema,
        body: ChannelSettingsSchema,
        response: withErrors({ 200: ChannelSettingsSchema }, [404, 415]),
      },
    },
    async (request) => messagingChannels.putChannel(request.params.shop_id, request.params.channel, request.body),
  );

  app.get(
    '/shops/:shop_id/channels/:channel',
    {
      schema: {
        tags,
        summary: "A channel's provider settings, secrets masked",
        security: ADMIN_SECURITY,
        params: ChannelParamsSchema,
        response: withErrors({ 200: ChannelSettingsSchema }, [404]),
      },
    },
    async (request) => messagingChannels.getChannel(request.params.shop_id, request.params.channel),
  );

  app.post(
    '/shops/:shop_id/channels/web_push/vapid_keys',
    {
      schema: {
        tags,
        summary: "Generate the web_push channel's VAPID key pair",
        description:
          'For a shop without one: a new key pair (vendor `vapid`) with the given `subject`, stored as a PUT would, the ' +
          'private key sealed; answered as the channel settings, masked. 409 when the shop has a pair already.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: VapidKeysBodySchema,
        response: withErrors({ 200: ChannelSettingsSchema }, [404, 409, 415]),
      },
    },
    async (request) => {
      await shops.requireShop(request.params.shop_id);
      return webPush.generateKeys(request.params.shop_id, request.body.subject);
    },
  );

  app.put(
    '/shops/:shop_id/mailings/transactional/:code',
    {
      schema: {
        tags,
        summary: 'Create or replace a transactional mailing',
        description: 'Liquid templates per channel, with locale variants; a template that does not parse is refused (422) naming where.',
        security: ADMIN_SECURITY,
        params: MailingParamsSchema,
        body: PutMailingBodySchema,
        response: withErrors({ 200: MailingSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const { name, ...templates } = request.body;
      const mailing = await mailings.putMailing(request.params.shop_id, request.params.code, {
        ...(name !== undefined && { name }),
        templates,
      });
      return toMailingBody(mailing);
    },
  );

  app.get(
    '/shops/:shop_id/mailings/transactional/:code',
    {
      schema: {
        tags,
        summary: 'A transactional mailing',
        security: ADMIN_SECURITY,
        params: MailingParamsSchema,
        response: withErrors({ 200: MailingSchema }, [404]),
      },
    },
    async (request) => toMailingBody(await mailings.getMailing(request.params.shop_id, request.params.code)),
  );

  app.get(
    '/shops/:shop_id/mailings/transactional',
    {
      schema: {
        tags,
        summary: 'Transactional mailings',
        description: 'By code, a page at a time: pass `next_after` back as `after` for the next page.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: MailingListQuerySchema,
        response: withErrors({ 200: MailingListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const page = await mailings.listMailings(request.params.shop_id, {
        limit: request.query.limit ?? 50,
        after: request.query.after ?? null,
      });
      return { mailings: page.mailings.map(toMailingBody), next_after: page.nextAfter };
    },
  );

  app.delete(
    '/shops/:shop_id/mailings/transactional/:code',
    {
      schema: {
        tags,
        summary: 'Delete a transactional mailing',
        description:
          'POST /transact refuses its code from then on (404) and a message of it still queued fails; the messages sent, their history and statistics stay.',
        security: ADMIN_SECURITY,
        params: MailingParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await mailings.deleteMailing(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/shops/:shop_id/mailings/transactional/:code/preview',
    {
      // A render that changes nothing: not an entry of the audit log.
      config: { audit: false },
      schema: {
        tags,
        summary: 'Render a mailing without sending',
        description: 'Every channel rendered with the given variables and profile fields (and locale, else `profile.locale`).',
        security: ADMIN_SECURITY,
        params: MailingParamsSchema,
        body: PreviewBodySchema,
        response: withErrors({ 200: PreviewSchema }, [404, 415]),
      },
    },
    async (request) => {
      const body = request.body;
      return (await mailings.preview(request.params.shop_id, request.params.code, {
        variables: body.variables ?? {},
        profile: body.profile ?? {},
        ...(body.locale !== undefined && { locale: body.locale }),
      })) as Record<string, Record<string, string>>;
    },
  );

  app.post(
    '/shops/:shop_id/mailings/transactional/:code/test',
    {
      schema: {
        tags,
        summary: 'Send a test of a mailing',
        description: 'As POST /transact with `test`: sent, but kept out of the history and statistics.',
        security: ADMIN_SECURITY,
        params: MailingParamsSchema,
        body: TestSendBodySchema,
        response: withErrors({ 200: TestSendSchema }, [404, 415]),
      },
    },
    async (request) => {
      await shops.requireShop(request.params.shop_id);
      const { variables, email, phone, external_id, loyalty_id, telegram_id } = request.body;
      const recipient = { email, phone, externalId: external_id, loyaltyId: loyalty_id, telegramId: telegram_id };
      if (Object.values(recipient).every((v) => v === undefined)) {
        throw new AppError('VALIDATION_FAILED', 'A recipient identifier is required (email, phone, …).', { field: 'email' });
      }
      const result = await transact.transact(request.params.shop_id, {
        mailingCode: request.params.code,
        recipient,
        variables: variables ?? {},
        test: true,
        cc: [],
        bcc: [],
      });
      return { code: result.code };
    },
  );

  app.get(
    '/shops/:shop_id/messages',
    {
      schema: {
        tags,
        summary: 'The delivery log',
        description: "Deliveries newest first, failed ones with the provider's error; by recipient email or phone, or by message code.",
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: MessagesQuerySchema,
        response: withErrors({ 200: DeliveryLogSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      await shops.requireShop(request.params.shop_id);
      const { email, phone, code, limit } = request.query;
      const entries = await messageHistory.deliveryLog(request.params.shop_id, {
        ...(email !== undefined && { email }),
        ...(phone !== undefined && { phone }),
        ...(code !== undefined && { code }),
        limit: limit ?? 50,
      });
      return {
        messages: entries.map((e) => ({
          code: e.code,
          channel: e.channel,
          type: e.type,
          status: e.status,
          ...(e.error !== null && { error: e.error }),
          to: e.to,
          test: e.test,
          attempts: e.attempts,
          created_at: new Date(e.createdAt).toISOString(),
          sent_at: e.sentAt === null ? null : new Date(e.sentAt).toISOString(),
        })),
      };
    },
  );

  done();
};

function toMailingBody(m: Mailing) {
  return {
    id: m.id,
    code: m.code,
    name: m.name,
    ...m.templates,
    created_at: new Date(m.createdAt).toISOString(),
    updated_at: new Date(m.updatedAt).toISOString(),
  };
}
