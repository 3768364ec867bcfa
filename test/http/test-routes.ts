import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../src/errors.js';
import { statusSuccess, successTrue } from '../../src/http/envelopes.js';
import { readString } from '../../src/http/readers.js';
import { assertShopServing, authenticatedShop } from '../../src/public-api/auth.js';
import type { PublicRouteModule } from '../../src/public-api/types.js';

/**
 * Test-only public routes, one per plumbing feature, registered through the public
 * plugin exactly as real route modules are.
 */
export const testRoutes: PublicRouteModule = (scope) => {
  // Echo the merged input in each family.
  scope.route({
    method: ['GET', 'POST', 'PATCH'],
    url: '/test/echo',
    config: { envelope: 'status', auth: 'none' },
    handler: (request) => statusSuccess({ payload: { input: request.input } }),
  });
  scope.post('/test/echo-success', { config: { envelope: 'success', auth: 'none' } }, (request) =>
    successTrue({ payload: { input: request.input } }),
  );
  scope.get('/test/bare', { config: { envelope: 'bare', auth: 'none' } }, () => [{ id: 1 }, { id: 2 }]);

  // The same business failure in each family.
  for (const envelope of ['status', 'success', 'bare'] as const) {
    scope.get(`/test/fail-${envelope}`, { config: { envelope, auth: 'none' } }, () => {
      throw new AppError('NOT_FOUND', 'Loyalty program member is not found');
    });
  }

  scope.get('/test/boom', { config: { envelope: 'status', auth: 'none' } }, () => {
    throw new Error('connection to /var/lib/secret.db refused');
  });
  scope.get('/test/boom-success', { config: { envelope: 'success', auth: 'none' } }, () => {
    throw new TypeError('Cannot read properties of undefined');
  });
  scope.get('/test/with-message', { config: { envelope: 'bare', auth: 'none' } }, () => ({ message: 'hi' }));
  scope.get('/test/wrong-family', { config: { envelope: 'success', auth: 'none' } }, () => statusSuccess());

  // Credentials.
  const whoAmI = (request: FastifyRequest) => statusSuccess({ payload: { shop_id: authenticatedShop(request).shopId } });
  scope.route({ method: ['GET', 'POST'], url: '/test/shop', config: { envelope: 'status', auth: 'shop' }, handler: whoAmI });
  scope.get('/test/secret-status', { config: { envelope: 'status', auth: 'shop+secret' } }, whoAmI);
  scope.get('/test/secret-bare', { config: { envelope: 'bare', auth: 'shop+secret' } }, whoAmI);
  scope.route({
    method: ['GET', 'POST'],
    url: '/test/secret-success',
    config: { envelope: 'success', auth: 'shop+secret' },
    handler: (request) => successTrue({ payload: { shop_id: authenticatedShop(request).shopId } }),
  });
  // Like POST /push: did is checked between "shop exists" and "shop state".
  scope.post('/test/deferred', { config: { envelope: 'status', auth: 'shop', deferShopState: true } }, (request) => {
    const did = request.input.did;
    if (did === undefined || did === '') throw new AppError('UNAUTHORIZED', 'Device ID is not valid');
    readString(request.input, 'did', { pattern: /^[A-Za-z0-9]{10}$/, patternHint: '10 letters or digits' });
    assertShopServing(request);
    return statusSuccess();
  });

  // A TypeBox schema over the merged input, validated after the credential check.
  scope.post(
    '/test/schema',
    {
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        body: Type.Object({
          shop_id: Type.String(),
          event: Type.Union([Type.Literal('cart'), Type.Literal('wish')]),
          stream: Type.Optional(Type.String({ minLength: 1 })),
          items: Type.Array(Type.Object({ id: Type.String({ maxLength: 5 }) }), { minItems: 1 }),
        }),
      },
    },
    (request) => statusSuccess({ payload: { items: request.body.items.length } }),
  );
  scope.get(
    '/test/schema-query',
    {
      config: { envelope: 'success', auth: 'none' },
      schema: { querystring: Type.Object({ page: Type.String({ pattern: '^[0-9]+$' }) }) },
    },
    (request) => successTrue({ payload: { page: request.query.page } }),
  );

  scope.get('/test/items/:id', { config: { envelope: 'status', auth: 'none' } }, () => statusSuccess());
};
