import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Block } from '../modules/recommendations/blocks.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { BlockListSchema, BlockParamsSchema, BlockSchema, PutBlockBodySchema, type BlockBody } from './recommendation-blocks.schemas.js';

const tags = ['recommendations'];

/** admin-api.md, Recommendation blocks: what GET /recommend/{code} answers. */
export const recommendationBlocksRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const blocks = app.services.recommendationBlocks;

  app.put(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Create or replace a recommendation block',
        description: 'A rule the block cannot hold is refused with 422 naming its path (`rules[1].then[0].recommender`).',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        body: PutBlockBodySchema,
        response: withErrors({ 200: BlockSchema }, [404]),
      },
    },
    async (request) => toBody(await blocks.putBlock(request.params.shop_id, request.params.code, request.body)),
  );

  app.get(
    '/shops/:shop_id/recommendation-blocks',
    {
      schema: {
        tags,
        summary: 'List recommendation blocks',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: BlockListSchema }, [404]),
      },
    },
    async (request) => ({ blocks: (await blocks.listBlocks(request.params.shop_id)).map(toBody) }),
  );

  app.get(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Get a recommendation block',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        response: withErrors({ 200: BlockSchema }, [404]),
      },
    },
    async (request) => toBody(await blocks.getBlock(request.params.shop_id, request.params.code)),
  );

  app.delete(
    '/shops/:shop_id/recommendation-blocks/:code',
    {
      schema: {
        tags,
        summary: 'Delete a recommendation block',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await blocks.deleteBlock(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toBody(block: Block): BlockBody {
  return {
    id: block.id,
    code: block.code,
    name: block.name,
    title: block.title,
    limit: block.limit,
    rules: [...block.rules],
    created_at: new Date(block.createdAt).toISOString(),
    updated_at: new Date(block.updatedAt).toISOString(),
  };
}
