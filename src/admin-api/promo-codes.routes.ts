import { Readable } from 'node:stream';
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CSV_CONTENT_TYPE, csvLine } from '../http/csv-writer.js';
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

  app.get(
    '/shops/:shop_id/promotions/:id/promo-codes.csv',
    {
      schema: {
        tags,
        summary: 'Download every promo code of a promotion as CSV',
        description:
          'One row per code in code order: ' +
          `\`${EXPORT_COLUMNS.join(',')}\`. Streamed in batches, whatever the number of codes; times in ISO 8601 (UTC), ` +
          "empty for none; a cell starting with `=`, `+`, `-` or `@` is prefixed with `'`.",
        security: ADMIN_SECURITY,
        params: PromotionParamsSchema,
        produces: ['text/csv'],
        response: withErrors({ 200: Type.String({ description: 'CSV with a header row (RFC 4180, CRLF).' }) }, [404]),
      },
    },
    async (request, reply) => {
      const promotionId = promotionIdParam(request.params.id);
      const batches = await codes.exportCodes(request.params.shop_id, promotionId);
      async function* lines() {
        yield csvLine(EXPORT_COLUMNS);
        for await (const batch of batches) yield batch.map(toCsvRow).join('');
      }
      return (
        reply
          .type(CSV_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="promotion-${promotionId}-promo-codes.csv"`)
          .header('cache-control', 'no-store')
          // A stream is piped as it is; the 200 schema documents the text for the OpenAPI document.
          .send(Readable.from(lines()) as unknown as string)
      );
    },
  );

  done();
};

const EXPORT_COLUMNS = ['code', 'status', 'usage_limit', 'per_member_limit', 'used', 'blocked', 'ends_at', 'created_at'];

function toCsvRow(c: PromoCode & { state: string }): string {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return csvLine([c.code, c.state, c.usageLimit, c.perMemberLimit, c.used, c.blocked, iso(c.endsAt), iso(c.createdAt)]);
}

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
