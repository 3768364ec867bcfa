import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { PromoCode } from '../modules/promotions/promo-codes.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CodeListQuerySchema,
  CodeListSchema,
  CreatePromoCodeBodySchema,
  GenerateBodySchema,
  GeneratedSchema,
  PromoCodeParamsSchema,
  PromoCodeSchema,
  type PromoCodeBody,
} from './promo-codes.schemas.js';
import { promotionIdParam, timeField } from './promotions.mappers.js';
import { integerQueryParameters } from './query-integers.js';
import { PromotionParamsSchema } from './promotions.schemas.js';

const tags = ['promotions'];
const DEFAULT_CODE_PAGE = 100;

/** admin-api.md, "Promotions, promo codes, certificates": promo codes (docs/promotions.md, "Codes"). */
export const promoCodesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const codes = app.services.promoCodes;

  app.post(
    '/shops/:shop_id/promo-codes',
    {
      schema: {
        tags,
        summary: 'Create a promo code of a promotion',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreatePromoCodeBodySchema,
        response: withErrors({ 201: PromoCodeSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const created = await codes.createCode(request.params.shop_id, b.code, b.promotion_id, {
        usageLimit: b.usage_limit,
        perMemberLimit: b.per_member_limit,
        endsAt: b.ends_at === undefined ? undefined : timeField('ends_at', b.ends_at),
      });
      return reply.code(201).send(toCodeBody(created));
    },
  );

  app.get(
    '/shops/:shop_id/promo-codes/:code',
    {
      schema: {
        tags,
        summary: 'Read a promo code (any case) with its used and blocked uses',
        security: ADMIN_SECURITY,
        params: PromoCodeParamsSchema,
        response: withErrors({ 200: PromoCodeSchema }, [404]),
      },
    },
    async (request) => toCodeBody(await codes.getCode(request.params.shop_id, request.params.code)),
  );

  app.post(
    '/shops/:shop_id/promotions/:id/promo-codes/generate',
    {
      schema: {
        tags,
        summary: 'Generate unique promo codes of a pattern for a promotion',
        security: ADMIN_SECURITY,
        params: PromotionParamsSchema,
        body: GenerateBodySchema,
        response: withErrors({ 201: GeneratedSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const promotionId = promotionIdParam(request.params.id);
      const b = request.body;
      const made = await codes.generateCodes(request.params.shop_id, promotionId, {
        count: b.count,
        pattern: b.pattern,
        usageLimit: b.usage_limit,
        perMemberLimit: b.per_member_limit,
        endsAt: b.ends_at === undefined ? undefined : timeField('ends_at', b.ends_at),
      });
      return reply.code(201).send({ promotion_id: promotionId, count: made.length, codes: made });
    },
  );

  app.get(
    '/shops/:shop_id/promotions/:id/promo-codes',
    {
      schema: {
        tags,
        summary: "List a promotion's promo codes by code, a page at a time",
        security: ADMIN_SECURITY,
        params: PromotionParamsSchema,
        querystring: CodeListQuerySchema,
        response: withErrors({ 200: CodeListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const page = await codes.listCodes(request.params.shop_id, promotionIdParam(request.params.id), {
        after: request.query.after,
        limit: request.query.limit ?? DEFAULT_CODE_PAGE,
      });
      return { promo_codes: page.codes.map(toCodeBody), next_after: page.nextAfter };
    },
  );

  done();
};

function toCodeBody(c: PromoCode): PromoCodeBody {
  return {
    code: c.code,
    promotion_id: c.promotionId,
    usage_limit: c.usageLimit,
    per_member_limit: c.perMemberLimit,
    used: c.used,
    blocked: c.blocked,
    ends_at: c.endsAt === null ? null : new Date(c.endsAt).toISOString(),
    created_at: new Date(c.createdAt).toISOString(),
  };
}
