import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { CustomProperty } from '../modules/audience/audience.types.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CreateCustomPropertyBodySchema,
  CustomPropertyListSchema,
  CustomPropertyParamsSchema,
  CustomPropertySchema,
  type CustomPropertyBody,
} from './custom-properties.schemas.js';

const tags = ['audience'];

/**
 * Custom user properties (interface.md, "Audience user record"): created here, with a
 * type, before POST /import/audience may carry values under their codes.
 */
export const customPropertiesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const properties = app.services.customProperties;

  app.post(
    '/shops/:shop_id/custom-properties',
    {
      schema: {
        tags,
        summary: 'Create a custom user property',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateCustomPropertyBodySchema,
        response: withErrors({ 201: CustomPropertySchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const created = await properties.createProperty(request.params.shop_id, request.body);
      return reply.code(201).send(toBody(created));
    },
  );

  app.get(
    '/shops/:shop_id/custom-properties',
    {
      schema: {
        tags,
        summary: 'List custom user properties',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: CustomPropertyListSchema }, [404]),
      },
    },
    async (request) => ({ custom_properties: (await properties.listProperties(request.params.shop_id)).map(toBody) }),
  );

  app.delete(
    '/shops/:shop_id/custom-properties/:code',
    {
      schema: {
        tags,
        summary: 'Delete a custom user property',
        description: 'Values already imported stay on the profiles; later imports report the code as unknown.',
        security: ADMIN_SECURITY,
        params: CustomPropertyParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await properties.deleteProperty(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toBody(property: CustomProperty): CustomPropertyBody {
  return { code: property.code, type: property.type, name: property.name };
}
