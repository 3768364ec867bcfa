import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Collection } from '../modules/collections/domain/collection.js';
import {
  CollectionListSchema,
  CollectionParamsSchema,
  CollectionSchema,
  PutCollectionBodySchema,
  type CollectionBody,
  type CollectionListBody,
} from './collections.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';

const tags = ['collections'];

/** Product collections: what GET /collection/{id} serves (docs/shopper-reads.md). */
export const collectionsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const collections = app.services.collections;

  app.put(
    '/shops/:shop_id/collections/:id',
    {
      schema: {
        tags,
        summary: 'Create or replace a collection',
        description: 'The collection gets exactly the given name and offer ids. Answers it as GET returns it.',
        security: ADMIN_SECURITY,
        params: CollectionParamsSchema,
        body: PutCollectionBodySchema,
        response: withErrors({ 200: CollectionSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const { shop_id, id } = request.params;
      const collection = await collections.putCollection(shop_id, id, {
        name: request.body.name,
        productIds: request.body.product_ids,
      });
      return toCollectionBody(collection);
    },
  );

  app.get(
    '/shops/:shop_id/collections',
    {
      schema: {
        tags,
        summary: 'List collections',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: CollectionListSchema }, [404]),
      },
    },
    async (request) => ({ collections: (await collections.listCollections(request.params.shop_id)).map(toSummaryBody) }),
  );

  app.get(
    '/shops/:shop_id/collections/:id',
    {
      schema: {
        tags,
        summary: 'Get a collection',
        security: ADMIN_SECURITY,
        params: CollectionParamsSchema,
        response: withErrors({ 200: CollectionSchema }, [404]),
      },
    },
    async (request) => toCollectionBody(await collections.getCollection(request.params.shop_id, request.params.id)),
  );

  app.delete(
    '/shops/:shop_id/collections/:id',
    {
      schema: {
        tags,
        summary: 'Delete a collection',
        description: 'GET /collection/{id} answers 404 `Collection not found` for it from then on.',
        security: ADMIN_SECURITY,
        params: CollectionParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await collections.deleteCollection(request.params.shop_id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toCollectionBody(collection: Collection): CollectionBody {
  return {
    id: collection.id,
    name: collection.name,
    product_ids: [...collection.productIds],
    created_at: new Date(collection.createdAt).toISOString(),
    updated_at: new Date(collection.updatedAt).toISOString(),
  };
}

function toSummaryBody(collection: Collection): CollectionListBody['collections'][number] {
  return {
    id: collection.id,
    name: collection.name,
    product_count: collection.productIds.length,
    created_at: new Date(collection.createdAt).toISOString(),
    updated_at: new Date(collection.updatedAt).toISOString(),
  };
}
