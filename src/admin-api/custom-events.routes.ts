import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CustomEventCode } from '../modules/shops/shops.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CreateCustomEventBodySchema,
  CustomEventListSchema,
  CustomEventParamsSchema,
  CustomEventSchema,
  type CustomEventBody,
} from './custom-events.schemas.js';

const tags = ['custom-events'];

/**
 * admin-api.md, Custom event codes: interface.md requires a code to exist here before
 * POST /push/custom accepts events with it.
 */
export const customEventsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const shops = app.services.shops;

  app.post(
    '/shops/:shop_id/custom-events',
    {
      schema: {
        tags,
        summary: 'Create a custom event code',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateCustomEventBodySchema,
        response: withErrors({ 201: CustomEventSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const created = await shops.createCustomEvent(request.params.shop_id, request.body);
      return reply.code(201).send(toCustomEventBody(created));
    },
  );

  app.get(
    '/shops/:shop_id/custom-events',
    {
      schema: {
        tags,
        summary: 'List custom event codes',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: CustomEventListSchema }, [404]),
      },
    },
    async (request) => ({
      custom_events: (await shops.listCustomEvents(request.params.shop_id)).map(toCustomEventBody),
    }),
  );

  app.delete(
    '/shops/:shop_id/custom-events/:code',
    {
      schema: {
        tags,
        summary: 'Delete a custom event code',
        security: ADMIN_SECURITY,
        params: CustomEventParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await shops.deleteCustomEvent(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toCustomEventBody(event: CustomEventCode): CustomEventBody {
  return { code: event.code, name: event.name };
}
