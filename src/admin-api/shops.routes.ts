import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { Shop } from '../modules/shops/domain/shop.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CreatedShopSchema,
  CreateShopBodySchema,
  RotatedSecretSchema,
  ShopListSchema,
  ShopSchema,
  UpdateShopBodySchema,
  type ShopBody,
} from './shops.schemas.js';

const tags = ['shops'];

/** admin-api.md, Shops. */
export const shopsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const shops = app.services.shops;

  app.post(
    '/shops',
    {
      schema: {
        tags,
        summary: 'Create a shop',
        description: 'Answers the shop with its API secret, which is shown in full only here and on rotation.',
        security: ADMIN_SECURITY,
        body: CreateShopBodySchema,
        response: withErrors({ 201: CreatedShopSchema }, [415]),
      },
    },
    async (request, reply) => {
      const { name, currency, timezone } = request.body;
      const { shop, secret } = await shops.createShop({ name, currency, timezone });
      const { shop_id, ...rest } = toShopBody(shop);
      return reply.code(201).send({ shop_id, shop_secret: secret, ...rest });
    },
  );

  app.get(
    '/shops',
    {
      schema: {
        tags,
        summary: 'List shops',
        description: 'A user limited to some shops sees only those.',
        security: ADMIN_SECURITY,
        response: withErrors({ 200: ShopListSchema }, []),
      },
    },
    async (request) => {
      // A user limited to some shops sees only those (docs/admin-users.md).
      const principal = request.adminPrincipal;
      const limit = principal?.kind === 'user' ? principal.shops : null;
      const listed = await shops.listShops();
      return { shops: (limit === null ? listed : listed.filter((shop) => limit.includes(shop.shopId))).map(toShopBody) };
    },
  );

  app.get(
    '/shops/:shop_id',
    {
      schema: {
        tags,
        summary: 'Read a shop',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ShopSchema }, [404]),
      },
    },
    async (request) => toShopBody(await shops.requireShop(request.params.shop_id)),
  );

  app.patch(
    '/shops/:shop_id',
    {
      schema: {
        tags,
        summary: 'Change a shop',
        description:
          'A shop serves the public API only while active, not restricted and not past paid_till ' +
          '(its last paid day, in the shop time zone; null means no payment limit).',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: UpdateShopBodySchema,
        response: withErrors({ 200: ShopSchema }, [404, 415]),
      },
    },
    async (request) => {
      const { active, restricted, paid_till, name } = request.body;
      const shop = await shops.updateShop(request.params.shop_id, { active, restricted, paidTill: paid_till, name });
      return toShopBody(shop);
    },
  );

  app.post(
    '/shops/:shop_id/secret',
    {
      schema: {
        tags,
        summary: 'Rotate the shop secret',
        description: 'Issues a new secret; the old one stops working at once.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: RotatedSecretSchema }, [404]),
      },
    },
    async (request) => ({ shop_secret: await shops.rotateSecret(request.params.shop_id) }),
  );

  done();
};

function toShopBody(shop: Shop): ShopBody {
  return {
    shop_id: shop.shopId,
    name: shop.name,
    currency: shop.currency,
    timezone: shop.timezone,
    active: shop.active,
    restricted: shop.restricted,
    paid_till: shop.paidTill,
  };
}
