import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryOutcomes, LogEntry } from '../modules/messaging/delivery-log.service.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import { MessageDetailSchema, MessageParamsSchema, MessageSearchPageSchema, MessageSearchQuerySchema } from './delivery-log.schemas.js';
import { ShopIdParamsSchema } from './common.schemas.js';
import { cursorKey, toPage } from './paging.js';
import { booleanQueryParameters, integerQueryParameters } from './query-integers.js';
import { AppError } from '../errors.js';

const tags = ['messaging'];
const CURSOR = ['integer', 'string', 'integer'] as const;

/** The delivery log: search and one message (docs/messaging.md, "The delivery log"). */
export const deliveryLogRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { deliveryLog } = app.services;

  app.get(
    '/shops/:shop_id/messages/search',
    {
      schema: {
        tags,
        summary: 'Search the delivery log',
        description:
          'Deliveries newest first, a keyset page at a time, by customer (profile id, email or phone), message code, ' +
          'channel, status, outcome, type, test and a period of creation. One filter of a kind; all filters together.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: MessageSearchQuerySchema,
        response: withErrors({ 200: MessageSearchPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit', 'profile_id');
        booleanQueryParameters(request, 'test');
        next();
      },
    },
    async (request) => {
      const q = request.query;
      const named = [q.profile_id, q.email, q.phone].filter((v) => v !== undefined).length;
      if (named > 1) {
        throw new AppError('VALIDATION_FAILED', 'Name the customer once: `profile_id`, `email` or `phone`.', { field: 'profile_id' });
      }
      const from = q.from === undefined ? undefined : Date.parse(q.from);
      const to = q.to === undefined ? undefined : Date.parse(q.to);
      if (from !== undefined && to !== undefined && from >= to) {
        throw new AppError('VALIDATION_FAILED', 'Query parameter `to` must be after `from`.', { field: 'to' });
      }
      const limit = q.limit ?? 50;
      const entries = await deliveryLog.search(
        request.params.shop_id,
        {
          ...(q.code !== undefined && { code: q.code }),
          ...(q.channel !== undefined && { channel: q.channel }),
          ...(q.status !== undefined && { status: q.status }),
          ...(q.outcome !== undefined && { outcome: q.outcome }),
          ...(q.type !== undefined && { type: q.type }),
          ...(q.test !== undefined && { test: q.test }),
          ...(from !== undefined && { from }),
          ...(to !== undefined && { to }),
          after: cursorKey(q.cursor, CURSOR),
          limit: limit + 1,
        },
        {
          ...(q.profile_id !== undefined && { profileId: q.profile_id }),
          ...(q.email !== undefined && { email: q.email }),
          ...(q.phone !== undefined && { phone: q.phone }),
        },
      );
      return toPage(entries, limit, (e) => [e.createdAt, e.code, e.seq], toLogBody);
    },
  );

  app.get(
    '/shops/:shop_id/messages/:code',
    {
      schema: {
        tags,
        summary: 'One message: what each delivery sent, each try and each outcome',
        description:
          "A message's deliveries with their content as rendered (an email's HTML is data for a sandboxed iframe), their " +
          'tries (time, vendor, outcome, answer) and their outcomes. Test sends included. 404 for a code of another shop.',
        security: ADMIN_SECURITY,
        params: MessageParamsSchema,
        response: withErrors({ 200: MessageDetailSchema }, [404]),
      },
    },
    async (request) => {
      const m = await deliveryLog.message(request.params.shop_id, request.params.code);
      return {
        code: m.code,
        type: m.type,
        mailing_code: m.mailingCode,
        campaign_id: m.campaignId,
        profile_id: m.profileId,
        test: m.test,
        created_at: iso(m.createdAt),
        deliveries: m.deliveries.map((d) => ({
          ...toLogBody(d),
          provider_message_id: d.providerMessageId,
          content: d.content,
          tries: d.tries.map((t) => ({
            attempt: t.attempt,
            at: iso(t.at),
            vendor: t.vendor,
            outcome: t.outcome as 'sent' | 'temporary' | 'permanent' | 'dead_address' | 'unknown',
            answer: t.answer,
            duration_ms: t.durationMs,
          })),
        })),
      };
    },
  );

  done();
};

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function toLogBody(e: LogEntry) {
  return {
    code: e.code,
    seq: e.seq,
    channel: e.channel,
    vendor: e.vendor,
    type: e.type,
    profile_id: e.profileId,
    to: e.to,
    status: e.status,
    error: e.error,
    test: e.test,
    attempts: e.attempts,
    created_at: iso(e.createdAt),
    sent_at: isoOrNull(e.sentAt),
    outcomes: toOutcomes(e.outcomes),
  };
}

function toOutcomes(o: DeliveryOutcomes) {
  return {
    delivered_at: isoOrNull(o.delivered),
    opened_at: isoOrNull(o.opened),
    clicked_at: isoOrNull(o.clicked),
    unsubscribed_at: isoOrNull(o.unsubscribed),
    hard_bounced_at: isoOrNull(o.hardBounced),
    soft_bounced_at: isoOrNull(o.softBounced),
    complained_at: isoOrNull(o.complained),
    purchased_at: isoOrNull(o.purchased),
  };
}
