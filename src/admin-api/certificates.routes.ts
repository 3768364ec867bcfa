import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { toUnits } from '../modules/loyalty/domain/amount.js';
import type { Certificate } from '../modules/promotions/certificates.service.js';
import {
  CERTIFICATE_PAGE_DEFAULT,
  CertificateListQuerySchema,
  CertificateListSchema,
  CertificateParamsSchema,
  CertificateSchema,
  CreateCertificateBodySchema,
  CreatePoolBodySchema,
  PoolListQuerySchema,
  PoolListSchema,
  PoolSchema,
  type CertificateBody,
} from './certificates.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { cursorKey, encodeCursor } from './paging.js';
import { amountField, timeField } from './promotions.mappers.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['promotions'];
const PAGING = 'Keyset paging: pass `next_cursor` back as `cursor`; each row appears on exactly one page.';
const ID_KEY = ['integer'] as const;

/** admin-api.md, "Promotions, promo codes, certificates": certificates and their pools (docs/promotions.md). */
export const certificatesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const certificates = app.services.certificates;

  app.post(
    '/shops/:shop_id/certificate-pools',
    {
      schema: {
        tags,
        summary: 'Create a certificate pool',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreatePoolBodySchema,
        response: withErrors({ 201: PoolSchema }, [404, 415]),
      },
    },
    async (request, reply) => reply.code(201).send(await certificates.createPool(request.params.shop_id, request.body.name)),
  );

  app.get(
    '/shops/:shop_id/certificate-pools',
    {
      schema: {
        tags,
        summary: 'List certificate pools',
        description: `The shop's certificate pools in the order they were made. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: PoolListQuerySchema,
        response: withErrors({ 200: PoolListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const key = cursorKey(request.query.cursor, ID_KEY);
      const page = await certificates.listPools(request.params.shop_id, key?.[0] ?? null, request.query.limit ?? CERTIFICATE_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return {
        items: page.items.map((p) => ({ id: p.id, name: p.name, created_at: new Date(p.createdAt).toISOString() })),
        next_cursor: page.more && last ? encodeCursor([last.id]) : null,
      };
    },
  );

  app.get(
    '/shops/:shop_id/certificates',
    {
      schema: {
        tags,
        summary: 'List gift certificates',
        description: `Newest first, optionally of one pool and in one status; balances in currency units. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: CertificateListQuerySchema,
        response: withErrors({ 200: CertificateListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit', 'pool');
        next();
      },
    },
    async (request) => {
      const { pool, status, cursor, limit } = request.query;
      const key = cursorKey(cursor, ID_KEY);
      const page = await certificates.listCertificates(
        request.params.shop_id,
        { poolId: pool, status },
        key?.[0] ?? null,
        limit ?? CERTIFICATE_PAGE_DEFAULT,
      );
      const last = page.items.at(-1);
      return {
        items: page.items.map((c) => ({ ...toCertificateBody(c), status: c.status })),
        next_cursor: page.more && last ? encodeCursor([last.id]) : null,
      };
    },
  );

  app.post(
    '/shops/:shop_id/certificates',
    {
      schema: {
        tags,
        summary: 'Create a gift certificate',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateCertificateBodySchema,
        response: withErrors({ 201: CertificateSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const created = await certificates.createCertificate(request.params.shop_id, {
        code: b.code,
        amount: amountField('amount', b.amount),
        poolId: b.pool_id,
        expiresAt: b.expires_at === undefined ? undefined : timeField('expires_at', b.expires_at),
      });
      return reply.code(201).send(toCertificateBody(created));
    },
  );

  app.get(
    '/shops/:shop_id/certificates/:code',
    {
      schema: {
        tags,
        summary: 'Read a gift certificate (any case) with its balance and held amount',
        security: ADMIN_SECURITY,
        params: CertificateParamsSchema,
        response: withErrors({ 200: CertificateSchema }, [404]),
      },
    },
    async (request) => toCertificateBody(await certificates.getCertificate(request.params.shop_id, request.params.code)),
  );

  done();
};

function toCertificateBody(c: Certificate): CertificateBody {
  return {
    id: c.id,
    code: c.code,
    pool_id: c.poolId,
    amount: toUnits(c.amount),
    balance: toUnits(c.balance),
    held: toUnits(c.held),
    expires_at: c.expiresAt === null ? null : new Date(c.expiresAt).toISOString(),
    created_at: new Date(c.createdAt).toISOString(),
  };
}
