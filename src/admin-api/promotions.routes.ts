import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { fromCreateBody, fromPatchBody, promotionIdParam, timeField, toPromotionBody } from './promotions.mappers.js';
import { integerQueryParameters } from './query-integers.js';
import {
  CreatePromotionBodySchema,
  PatchPromotionBodySchema,
  PromotionCreatedSchema,
  PromotionListQuerySchema,
  PromotionListSchema,
  PromotionParamsSchema,
  PromotionSchema,
} from './promotions.schemas.js';

const tags = ['promotions'];

/**
 * admin-api.md, "Promotions, promo codes, certificates": promotions (docs/promotions.md).
 * Archiving is a PATCH to `archived`, after which the promotion changes no more.
 */
export const promotionsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const promotions = app.services.promotions;

  app.post(
    '/shops/:shop_id/promotions',
    {
      schema: {
        tags,
        summary: 'Create a promotion',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreatePromotionBodySchema,
        response: withErrors({ 201: PromotionCreatedSchema }, [404, 413, 415]),
      },
    },
    async (request, reply) => {
      const created = await promotions.createPromotion(request.params.shop_id, fromCreateBody(request.body));
      return reply.code(201).send({ id: created.id });
    },
  );

  app.get(
    '/shops/:shop_id/promotions',
    {
      schema: {
        tags,
        summary: 'List promotions by id, with filters, a page at a time',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: PromotionListQuerySchema,
        response: withErrors({ 200: PromotionListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'after', 'limit');
        next();
      },
    },
    async (request) => {
      const { status, active_at: activeAt, q, after, limit } = request.query;
      const page = await promotions.listPromotions(request.params.shop_id, {
        status,
        activeAt: activeAt === undefined ? undefined : timeField('active_at', activeAt),
        q,
        afterId: after,
        limit,
      });
      return { promotions: page.promotions.map(toPromotionBody), next_after: page.nextAfter };
    },
  );

  app.get(
    '/shops/:shop_id/promotions/:id',
    {
      schema: {
        tags,
        summary: 'Read a promotion',
        security: ADMIN_SECURITY,
        params: PromotionParamsSchema,
        response: withErrors({ 200: PromotionSchema }, [404]),
      },
    },
    async (request) => toPromotionBody(await promotions.getPromotion(request.params.shop_id, promotionIdParam(request.params.id))),
  );

  app.patch(
    '/shops/:shop_id/promotions/:id',
    {
      schema: {
        tags,
        summary: 'Change any fields of a promotion (validated whole); status `archived` archives it for good',
        security: ADMIN_SECURITY,
        params: PromotionParamsSchema,
        body: PatchPromotionBodySchema,
        response: withErrors({ 200: PromotionSchema }, [404, 409, 413, 415]),
      },
    },
    async (request) => {
      const id = promotionIdParam(request.params.id);
      return toPromotionBody(await promotions.updatePromotion(request.params.shop_id, id, fromPatchBody(request.body ?? {})));
    },
  );

  done();
};
