import { AppError } from '../../errors.js';
import { statusSuccess, successTrue } from '../../http/envelopes.js';
import type { Counters, MessageStatus, SentMessage } from '../../modules/messaging/history.service.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import {
  readChannels,
  readCountersQuery,
  readDateFrom,
  readHistoryCustomer,
  readPage,
  readTransactRequest,
  readTypes,
} from './messaging.params.js';
import {
  CountersQuerySchema,
  CountersResponses,
  ExtendedCountersResponses,
  MESSAGING_TAGS,
  MessageStatusResponses,
  NotificationsQuerySchema,
  NotificationsResponses,
  TransactBodySchema,
  TransactResponses,
} from './messaging.schemas.js';

/**
 * POST /transact (interface.md endpoint 3) in the success envelope, and the message
 * history (endpoints 15, 16; contract-notes "Messaging") in the status envelope, all with
 * the shop's secret (interface.md, "Authentication" 3).
 */
export const messagingRoutes: PublicRouteModule = (scope) => {
  const { transact, messageHistory } = scope.services;

  scope.post(
    '/transact',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'success', auth: 'shop+secret' },
      schema: {
        tags: MESSAGING_TAGS,
        summary: 'Send a transactional message',
        description:
          'Sends the mailing `code` to the recipient (created when unknown) on every channel of the mailing the ' +
          'recipient can be reached on. The answer comes once the message and its deliveries are stored: an ' +
          'acknowledged message is not lost. An `Idempotency-Key` header already used answers the first code. ' +
          'JSON, urlencoded or multipart (`variables[KEY]`, `cc[]`).',
        body: TransactBodySchema,
        response: TransactResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const header = request.headers['idempotency-key'];
      const transactRequest = readTransactRequest(request.input, Array.isArray(header) ? header[0] : header);
      const result = await transact.transact(shop.shopId, transactRequest);
      // contract-notes: a test send "gets no code in history"; its code is not given out.
      return successTrue({ payload: { code: transactRequest.test ? null : result.code } });
    },
  );

  scope.get(
    '/notifications',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'status', auth: 'shop+secret' },
      schema: {
        tags: MESSAGING_TAGS,
        summary: "A customer's sent messages",
        description: 'Newest first (by sent_at). `chain` and `trigger` are the same type.',
        querystring: NotificationsQuerySchema,
        response: NotificationsResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const input = request.input;
      const customer = readHistoryCustomer(input, false);
      const types = readTypes(input, false);
      const channels = readChannels(input, false);
      const sentFrom = readDateFrom(input, false);
      const messages = await messageHistory.listSent(
        shop.shopId,
        { customer, ...(types && { types }), ...(channels && { channels }), ...(sentFrom !== undefined && { sentFrom }) },
        readPage(input),
      );
      return statusSuccess({ payload: { messages: messages.map(toSentMessageBody) } });
    },
  );

  scope.get(
    '/notifications/counters',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'status', auth: 'shop+secret' },
      schema: {
        tags: MESSAGING_TAGS,
        summary: 'Sent and opened counts of one channel and type',
        querystring: CountersQuerySchema,
        response: CountersResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const query = readCountersQuery(request.input);
      if (query.channels.length !== 1 || query.types.length !== 1) {
        throw new AppError('VALIDATION_FAILED', 'Parameters `channel` and `type` name one each here; the extended counters take several.');
      }
      const rows = await messageHistory.counters(shop.shopId, query);
      const sum = rows.reduce((a, r) => ({ sent: a.sent + r.sent, opened: a.opened + r.opened }), { sent: 0, opened: 0 });
      return statusSuccess({ payload: { counters: sum } });
    },
  );

  scope.get(
    '/notifications/counters/extended',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'status', auth: 'shop+secret' },
      schema: {
        tags: MESSAGING_TAGS,
        summary: 'Sent, opened and clicked counts by channel and type',
        description: 'Every requested channel is a key; a type without messages is an empty object.',
        querystring: CountersQuerySchema,
        response: ExtendedCountersResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const query = readCountersQuery(request.input);
      const { channels, types } = query;
      const rows = await messageHistory.counters(shop.shopId, query);
      const out: Record<string, Record<string, Counters | Record<string, never>>> = {};
      for (const channel of channels) {
        out[channel] = {};
        for (const type of types) {
          const row = rows.find((r) => r.channel === channel && r.type === type);
          out[channel][type] = row ? { sent: row.sent, opened: row.opened, clicked: row.clicked } : {};
        }
      }
      return statusSuccess({ payload: { counters: { channels: out } } });
    },
  );

  scope.get(
    '/notifications/:code',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'status', auth: 'shop+secret' },
      schema: {
        tags: MESSAGING_TAGS,
        summary: "One message's status and statistics",
        description: 'The code /transact answered; test sends are not found.',
        response: MessageStatusResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const { code } = request.params as { code: string };
      return statusSuccess({ payload: { message: toStatusBody(await messageHistory.messageStatus(shop.shopId, code)) } });
    },
  );
};

function toSentMessageBody(m: SentMessage) {
  const sentAt = new Date(m.sentAt).toISOString();
  return {
    type: m.type,
    campaign_id: m.campaignId,
    code: m.code,
    date: sentAt.slice(0, 10),
    sent_at: sentAt,
    subject: m.subject,
    body: m.body,
    url: m.url,
    icon: m.icon,
    picture: m.picture,
    statistics: m.statistics,
  };
}

function toStatusBody(m: MessageStatus) {
  const statuses = m.deliveries.map((d) => d.status);
  const status = statuses.includes('queued') ? 'queued' : statuses.includes('sent') ? 'sent' : 'failed';
  return {
    code: m.code,
    type: m.type,
    campaign_id: m.campaignId,
    created_at: new Date(m.createdAt).toISOString(),
    status,
    channels: m.deliveries.map((d) => ({
      channel: d.channel,
      status: d.status,
      sent_at: d.sentAt === null ? null : new Date(d.sentAt).toISOString(),
      statistics: d.statistics,
    })),
  };
}
