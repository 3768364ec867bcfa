import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { PATRON_VERSION } from '../version.js';

/** The security scheme admin routes name in `schema.security`: `[{ adminToken: [] }]`. */
export const ADMIN_TOKEN_SECURITY = 'adminToken';

/**
 * The OpenAPI 3.1 document at /docs/json and Swagger UI at /docs. Registered before
 * every scope: @fastify/swagger collects routes through an onRoute hook, so it only
 * sees routes registered after it. TypeBox schemas are JSON Schema, and OpenAPI 3.1
 * speaks JSON Schema 2020-12, so the route schemas go into the document unchanged.
 */
const openapi: FastifyPluginAsync = async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Patron',
        version: PATRON_VERSION,
        description:
          'Customer data, loyalty and messaging server. The admin API lives under /admin/v1 and needs ' +
          '`Authorization: Bearer <admin token>`; the public API follows the platform contract.',
      },
      tags: [{ name: 'system', description: 'Health, readiness and metrics' }],
      components: {
        securitySchemes: {
          [ADMIN_TOKEN_SECURITY]: {
            type: 'http',
            scheme: 'bearer',
            description: 'The admin token: PATRON_ADMIN_TOKEN, or the one printed on first start.',
          },
        },
      },
    },
    // Shared schemas added with app.addSchema keep their $id as the component name.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
};

export const openapiPlugin = fp(openapi, { name: 'patron-openapi', fastify: '5.x' });
