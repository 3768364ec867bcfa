import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import {
  ChannelListSchema,
  ChannelTestBodySchema,
  ChannelTestParamsSchema,
  ChannelTestSchema,
  ChannelVendorsSchema,
} from './channels.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';

const tags = ['messaging'];

/** The channels of a shop with their health, and a channel's test send (docs/messaging.md, "Channels in the admin API"). */
export const channelsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { messagingChannels, channelTests } = app.services;

  app.get(
    '/shops/:shop_id/channels',
    {
      schema: {
        tags,
        summary: 'Every channel of the shop, configured or not, with its health',
        description:
          'Each channel: whether it is configured, its vendors with each secret set or not set (never a value), and its ' +
          'health: sent, failed and bounced in the last 24 hours, and the last vendor error.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ChannelListSchema }, [404]),
      },
    },
    async (request) => {
      const channels = await messagingChannels.overview(request.params.shop_id);
      const iso = (ms: number) => new Date(ms).toISOString();
      return {
        channels: channels.map((c) => ({
          channel: c.channel,
          configured: c.configured,
          vendors: c.vendors.map((v) => ({ vendor: v.vendor, secrets: v.secrets })),
          rate_per_second: c.ratePerSecond,
          updated_at: c.updatedAt === null ? null : iso(c.updatedAt),
          health: {
            since: iso(c.health.since),
            sent: c.health.sent,
            failed: c.health.failed,
            bounced: c.health.bounced,
            last_error: c.health.lastError && { ...c.health.lastError, at: iso(c.health.lastError.at) },
          },
        })),
      };
    },
  );

  app.get(
    '/shops/:shop_id/channels/:channel/vendors',
    {
      schema: {
        tags,
        summary: "The vendors a channel can use, with each one's settings schema and secret fields",
        description:
          'What a settings form is drawn from: per vendor, the JSON Schema its settings are validated with and the fields ' +
          'it keeps write-only. 404 for an unknown channel.',
        security: ADMIN_SECURITY,
        params: ChannelTestParamsSchema,
        response: withErrors({ 200: ChannelVendorsSchema }, [404]),
      },
    },
    async (request) => {
      const vendors = await messagingChannels.vendorSchemas(request.params.shop_id, request.params.channel);
      return {
        vendors: vendors.map((v) => ({
          vendor: v.vendor,
          secret_fields: [...v.secretFields],
          settings_schema: v.settingsSchema as Record<string, unknown>,
        })),
      };
    },
  );

  app.post(
    '/shops/:shop_id/channels/:channel/test',
    {
      schema: {
        tags,
        summary: 'Send a short fixed test message through the channel',
        description:
          "Sent at once through the channel's configured vendor, waiting up to 20 s for its answer; recorded in the delivery " +
          'log as a test. 409 when the channel is not configured; 429 past 20 test sends an hour per shop.',
        security: ADMIN_SECURITY,
        params: ChannelTestParamsSchema,
        body: ChannelTestBodySchema,
        response: withErrors({ 200: ChannelTestSchema }, [404, 409, 415]),
      },
    },
    async (request) => channelTests.testSend(request.params.shop_id, request.params.channel, request.body.to),
  );

  done();
};
