import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { BulkMailingView } from '../modules/bulk/bulk.service.js';
import { MAX_SEGMENTS } from '../modules/bulk/reach.service.js';
import type { Outcomes } from '../modules/bulk/domain/progress.js';
import { delivered, rate } from '../modules/bulk/domain/progress.js';
import type { Reach } from '../modules/bulk/domain/reach.js';
import { toUnits } from '../modules/loyalty/domain/amount.js';
import { CHANNELS, type Channel } from '../modules/messaging/providers/provider.js';
import {
  AudienceQuerySchema,
  AudienceSchema,
  BulkListQuerySchema,
  BulkListSchema,
  BulkParamsSchema,
  BulkSchema,
  CreateBulkBodySchema,
  LimitsSchema,
  type AudienceBody,
  type BulkBody,
} from './bulk.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { cursorKey, encodeCursor } from './paging.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['bulk mailings'];

/** admin-api.md, "Chains and bulk mailings": bulk mailings and the messaging limits (docs/bulk.md). */
export const bulkRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const bulk = app.services.bulkMailings;
  const reach = app.services.bulkReach;
  const limits = app.services.messagingLimits;

  app.get(
    '/shops/:shop_id/mailings/bulk/audience',
    {
      schema: {
        tags,
        summary: 'The reachable audience of segments, per channel, before a mailing is sent',
        description:
          'Distinct members, and per channel those with an address less those unsubscribed (bulk flag off), bounced or complained (the dead list) and over the cap of today or this week. A POST of a mailing that would reach nobody is refused with 422.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: AudienceQuerySchema,
        response: withErrors({ 200: AudienceSchema }, [404]),
      },
    },
    async (request) => {
      const ids = request.query.segment_ids.split(',').map(Number);
      if (ids.length > MAX_SEGMENTS || ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
        throw new AppError('VALIDATION_FAILED', `Query parameter \`segment_ids\` must hold 1 to ${MAX_SEGMENTS} segment ids.`, {
          field: 'segment_ids',
        });
      }
      const channels = request.query.channels ? ([...new Set(request.query.channels.split(','))] as Channel[]) : [...CHANNELS];
      return toAudienceBody(await reach.reach(request.params.shop_id, ids, channels));
    },
  );

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
      return reply.code(201).send(toBody(view, false));
    },
  );

  app.get(
    '/shops/:shop_id/mailings/bulk',
    {
      schema: {
        tags,
        summary: 'The bulk mailings, newest first, a page at a time',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: BulkListQuerySchema,
        response: withErrors({ 200: BulkListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const key = cursorKey(request.query.cursor, ['integer'] as const);
      const page = await bulk.list(request.params.shop_id, request.query.limit ?? 20, key ? key[0] : null);
      return {
        mailings: page.mailings.map((m) => toBody(m, false)),
        next_cursor: page.next === null ? null : encodeCursor([page.next]),
      };
    },
  );

  app.get(
    '/shops/:shop_id/mailings/bulk/:id',
    {
      schema: {
        tags,
        summary: 'A bulk mailing, its counts, progress and results per variant',
        security: ADMIN_SECURITY,
        params: BulkParamsSchema,
        response: withErrors({ 200: BulkSchema }, [404]),
      },
    },
    async (request) => {
      if (!/^[1-9][0-9]{0,14}$/.test(request.params.id)) throw new AppError('NOT_FOUND', 'The bulk mailing does not exist.');
      return toBody(await bulk.get(request.params.shop_id, Number(request.params.id)), true);
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

function toBody(view: BulkMailingView, detail: boolean): BulkBody {
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
    ...(detail && {
      progress: {
        to_send: view.progress.toSend,
        done: view.progress.done,
        percent: view.progress.percent,
        ab_phase: view.progress.abPhase,
        decide_at: view.progress.decideAt === null ? null : new Date(view.progress.decideAt).toISOString(),
      },
      results: {
        variants: view.results.variants.map((v) => ({ variant: v.variant, share: v.share, ...toOutcomesBody(v) })),
        rest: view.results.rest && { variant: view.results.rest.variant, ...toOutcomesBody(view.results.rest) },
        total: toOutcomesBody(view.results.total),
      },
    }),
  };
}

function toOutcomesBody(o: Outcomes) {
  const base = delivered(o);
  return {
    messaged: o.messaged,
    sent: o.sent,
    delivered: base,
    failed: o.failed,
    bounced: o.bounced,
    opened: o.opened,
    clicked: o.clicked,
    unsubscribed: o.unsubscribed,
    purchases: o.purchases,
    revenue: toUnits(o.revenue),
    open_rate: rate(o.opened, base),
    click_rate: rate(o.clicked, base),
  };
}

function toAudienceBody(r: Reach): AudienceBody {
  const channels: AudienceBody['channels'] = {};
  for (const [channel, c] of r.channels) {
    channels[channel] = {
      configured: c.configured,
      with_address: c.address,
      unsubscribed: c.unsubscribed,
      bounced: c.dead,
      over_cap: c.overCap,
      reachable: c.reachable,
    };
  }
  return { members: r.members, reachable: r.reachable, channels, cap_periods: r.periods };
}
