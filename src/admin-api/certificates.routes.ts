import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { toUnits } from '../modules/loyalty/domain/amount.js';
import type { Certificate } from '../modules/promotions/certificates.service.js';
import {
  CertificateParamsSchema,
  CertificateSchema,
  CreateCertificateBodySchema,
  CreatePoolBodySchema,
  PoolSchema,
  type CertificateBody,
} from './certificates.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { amountField, timeField } from './promotions.mappers.js';

const tags = ['promotions'];

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
