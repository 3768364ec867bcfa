import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { StoredEvent } from '../modules/tracking/tracking.types.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  EventListQuerySchema,
  EventListSchema,
  RecentEventListQuerySchema,
  RecentEventListSchema,
  type EventBody,
  type RecentEventBody,
} from './events.schemas.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['events'];

/** admin-api.md, Events (read). */
export const eventsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const profileView = app.services.profileView;

  app.get(
    '/shops/:shop_id/events',
    {
      schema: {
        tags,
        summary: "List a device's events",
        description:
          'The newest tracked events of the device, newest first, with their items as stored after ' +
          'normalisation and their other parameters under the contract names. A device the shop does not ' +
          'know has no events.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: EventListQuerySchema,
        response: withErrors({ 200: EventListSchema }, [404]),
      },
      preValidation: (request, _reply, done) => {
        integerQueryParameters(request, 'limit');
        done();
      },
    },
    async (request) => {
      const { shop_id } = request.params;
      const { did, limit } = request.query;
      const events = await profileView.listDeviceEvents(shop_id, did, limit);
      return { events: events.map(toEventBody) };
    },
  );

  app.get(
    '/shops/:shop_id/events/recent',
    {
      schema: {
        tags,
        summary: "List a shop's newest events",
        description:
          'The events the shop received last, newest first, for a live view: poll with `after` set to the largest ' +
          '`id` seen to get only newer ones. Keyset on the event id; at most `limit` per answer.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: RecentEventListQuerySchema,
        response: withErrors({ 200: RecentEventListSchema }, [404]),
      },
      preValidation: (request, _reply, done) => {
        integerQueryParameters(request, 'after', 'limit');
        done();
      },
    },
    async (request) => {
      const { after, limit } = request.query;
      const events = await profileView.listRecentEvents(request.params.shop_id, after, limit);
      return { events: events.map(toRecentEventBody) };
    },
  );

  done();
};

function toRecentEventBody(event: StoredEvent): RecentEventBody {
  return { id: event.id, did: event.did, custom: event.custom, ...toEventBody(event) };
}

export function toEventBody(event: StoredEvent): EventBody {
  return {
    event: event.event,
    time: new Date(event.time).toISOString(),
    items: [...event.items],
    params: presentParams(event.params),
  };
}

/** admin-api.md: a parameter that was absent or ignored is left out. */
function presentParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== null));
}
