import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { BulkMailingView } from '../modules/bulk/bulk.service.js';
import { BulkListSchema, BulkParamsSchema, BulkSchema, CreateBulkBodySchema, LimitsSchema, type BulkBody } from './bulk.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';

const tags = ['bulk mailings'];

/** admin-api.md, "Chains and bulk mailings": bulk mailings and the messaging limits (docs/bulk.md). */
export const bulkRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const bulk = app.services.bulkMailings;
  const limits = app.services.messagingLimits;

  app.post(
    '/shops/:shop_id/mailings/bulk',
    {
      schema: {
        tags,
        summary: 'Create a bulk mailing to segments',
        description: 'Scheduled until `send_at`, then sending, then done. A segment of no profiles makes a mailing done with 0 recipients.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateBulkBodySchema,
        response: withErrors({ 201: BulkSchema }, [404, 413, 415]),
      },
    },
    async (request, reply) => {
      const { name, segment_ids, send_at, throttle_per_minute, ab, ...templates } = request.body;
      const sendAt = send_at === undefined ? undefined : Date.parse(send_at);
      if (sendAt !== undefined && !Number.isFinite(sendAt))
        throw new AppError('VALIDATION_FAILED', 'Field `send_at` must be an ISO time.', { field: 'send_at' });
      const view = await bulk.create(request.params.shop_id, {
        name,
        segmentIds: segment_ids,
        templates: templates,
        ...(sendAt !== undefined && { sendAt }),
        ...(throttle_per_minute !== undefined && { throttlePerMinute: throttle_per_minute }),
        ...(ab !== undefined && { ab }),
      });
      return reply.code(201).send(toBody(view));
    },
  );

  app.get(
    '/shops/:shop_id/mailings/bulk',
    {
      schema: {
        tags,
        summary: 'The newest bulk mailings',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: BulkListSchema }, [404]),
      },
    },
    async (request) => ({ mailings: (await bulk.list(request.params.shop_id)).map(toBody) }),
  );

  app.get(
    '/shops/:shop_id/mailings/bulk/:id',
    {
      schema: {
        tags,
        summary: 'A bulk mailing and its counts',
        security: ADMIN_SECURITY,
        params: BulkParamsSchema,
        response: withErrors({ 200: BulkSchema }, [404]),
      },
    },
    async (request) => {
      if (!/^[1-9][0-9]{0,14}$/.test(request.params.id)) throw new AppError('NOT_FOUND', 'The bulk mailing does not exist.');
      return toBody(await bulk.get(request.params.shop_id, Number(request.params.id)));
    },
  );

  app.put(
    '/shops/:shop_id/messaging/limits',
    {
      schema: {
        tags,
        summary: 'Replace the frequency caps and quiet hours per channel',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: LimitsSchema,
        response: withErrors({ 200: LimitsSchema }, [404, 415]),
      },
    },
    async (request) => limits.putLimits(request.params.shop_id, request.body),
  );

  app.get(
    '/shops/:shop_id/messaging/limits',
    {
      schema: {
        tags,
        summary: 'The frequency caps and quiet hours',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: LimitsSchema }, [404]),
      },
    },
    async (request) => limits.getLimits(request.params.shop_id),
  );

  done();
};

function toBody(view: BulkMailingView): BulkBody {
  return {
    id: view.id,
    name: view.name,
    status: view.status,
    segment_ids: view.segmentIds,
    send_at: new Date(view.sendAt).toISOString(),
    throttle_per_minute: view.throttlePerMinute,
    recipients: view.recipients,
    sent: view.sent,
    skipped: view.skipped,
    failed: view.failed,
    pending: view.pending,
    held: view.held,
    skipped_by: view.skippedBy,
    winner: view.winner,
  };
}
