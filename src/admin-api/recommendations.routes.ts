import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { ModelsStatus } from '../modules/recommendations/models.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { ModelsStatusSchema, RebuildQueuedSchema, type ModelsStatusBody } from './recommendations.schemas.js';

const tags = ['recommendations'];

/** admin-api.md, Recommendation blocks: asking for a rebuild of the models, and their state. */
export const recommendationsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const models = app.services.recommendationModels;

  app.post(
    '/shops/:shop_id/recommendations/rebuild',
    {
      schema: {
        tags,
        summary: 'Rebuild the recommendation models',
        description:
          'Queues a build of the shop’s models from its orders and views (they are also rebuilt daily). ' +
          'A build asked for while one runs leaves the running one to finish.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 202: RebuildQueuedSchema }, [404]),
      },
    },
    async (request, reply) => {
      await models.requestRebuild(request.params.shop_id);
      return reply.code(202).send({ status: 'queued' as const });
    },
  );

  app.get(
    '/shops/:shop_id/recommendations/status',
    {
      schema: {
        tags,
        summary: 'The state of the recommendation models',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ModelsStatusSchema }, [404]),
      },
    },
    async (request) => toStatusBody(await models.status(request.params.shop_id)),
  );

  done();
};

function toStatusBody(status: ModelsStatus): ModelsStatusBody {
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  return {
    built_at: iso(status.builtAt),
    building: status.building,
    building_since: iso(status.buildingSince),
    rows_read: status.rowsRead,
    last_error: status.lastError,
    last_error_at: iso(status.lastErrorAt),
    orders_read: status.ordersRead,
    sessions_read: status.sessionsRead,
    items_with_neighbours: status.itemsWithNeighbours,
    duration_ms: status.durationMs,
  };
}
