import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { Profile } from '../modules/identity/index.js';
import type { SentMessage } from '../modules/messaging/index.js';
import type { TrackedOrder } from '../modules/tracking/index.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CUSTOMER_PAGE_DEFAULT,
  CustomerListQuerySchema,
  CustomerListSchema,
  CustomerMessagesSchema,
  CustomerOrdersSchema,
  CustomerParamsSchema,
  CustomerSchema,
  HistoryQuerySchema,
  TimelineSchema,
  type CustomerMessageBody,
  type CustomerOrderBody,
  type CustomerSummaryBody,
} from './customers.schemas.js';
import { toEventBody } from './events.routes.js';
import { cursorKey, encodeCursor } from './paging.js';
import { toProfileBody } from './profiles.routes.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['customers'];
const PAGING = 'Keyset paging: pass `next_cursor` back as `cursor`; each row appears on exactly one page.';
const TIME_KEY = ['integer', 'integer'] as const;
const SENT_KEY = ['integer', 'string', 'integer'] as const;

/** The admin UI's customers (docs/admin-lists.md). Amounts cross this edge in currency units. */
export const customersRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { customers } = app.services;
  const limitOnly = {
    preValidation: (request: Parameters<typeof integerQueryParameters>[0], _reply: unknown, next: () => void) => {
      integerQueryParameters(request, 'limit');
      next();
    },
  };

  app.get(
    '/shops/:shop_id/customers',
    {
      schema: {
        tags,
        summary: 'Find customers by any identifier, or list them newest first',
        description: `With \`identifier\`: the live profiles holding it, by exact match on an index. Without: every live profile, newest first. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: CustomerListQuerySchema,
        response: withErrors({ 200: CustomerListSchema }, [404]),
      },
      ...limitOnly,
    },
    async (request) => {
      const { shop_id } = request.params;
      const { identifier, cursor } = request.query;
      if (identifier !== undefined) {
        if (cursor !== undefined) {
          throw new AppError('VALIDATION_FAILED', 'Query parameter `cursor` pages the list without `identifier`.', { field: 'cursor' });
        }
        return { items: (await customers.findByIdentifier(shop_id, identifier)).map(toSummary), next_cursor: null };
      }
      const key = cursorKey(cursor, TIME_KEY);
      const before = key === null ? null : { createdAt: key[0], id: key[1] };
      const page = await customers.listNewest(shop_id, before, request.query.limit ?? CUSTOMER_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return { items: page.items.map(toSummary), next_cursor: page.more && last ? encodeCursor([last.createdAt, last.id]) : null };
    },
  );

  app.get(
    '/shops/:shop_id/customers/:profile_id',
    {
      schema: {
        tags,
        summary: "A customer's page",
        description:
          'Identifiers, devices, merges, properties, subscription flags, push tokens, segments, cart, wish list and loyalty ' +
          'balance in one answer. The event timeline and orders are paged apart; the loyalty ledger is ' +
          '`GET …/loyalty/members/{identifier}/transactions` and the messages `GET …/messages?email=|phone=`.',
        security: ADMIN_SECURITY,
        params: CustomerParamsSchema,
        response: withErrors({ 200: CustomerSchema }, [404]),
      },
    },
    async (request) => {
      const { shop_id, profile_id } = request.params;
      const customer = await customers.customer(shop_id, Number(profile_id));
      return {
        ...toProfileBody(customer),
        created_at: iso(customer.createdAt),
        updated_at: iso(customer.updatedAt),
        merges: customer.merges.map((m) => ({
          from_profile_id: m.fromProfileId,
          into_profile_id: m.intoProfileId,
          reason: m.reason,
          identifiers: { ...m.identifiers },
          at: iso(m.createdAt),
        })),
        loyalty:
          customer.loyalty === null
            ? null
            : { identifier: customer.loyalty.identifier, balance: customer.loyalty.balance / 100, pending: customer.loyalty.pending / 100 },
      };
    },
  );

  app.get(
    '/shops/:shop_id/customers/:profile_id/events',
    {
      schema: {
        tags,
        summary: "A customer's event timeline",
        description: `The events of every device of the customer (and of the profiles merged into it), newest first. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: CustomerParamsSchema,
        querystring: HistoryQuerySchema,
        response: withErrors({ 200: TimelineSchema }, [404]),
      },
      ...limitOnly,
    },
    async (request) => {
      const { shop_id, profile_id } = request.params;
      const key = cursorKey(request.query.cursor, TIME_KEY);
      const before = key === null ? null : { time: key[0], id: key[1] };
      const page = await customers.events(shop_id, Number(profile_id), before, request.query.limit ?? CUSTOMER_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return {
        items: page.items.map((event) => ({ id: event.id, ...toEventBody(event) })),
        next_cursor: page.more && last ? encodeCursor([last.time, last.id]) : null,
      };
    },
  );

  app.get(
    '/shops/:shop_id/customers/:profile_id/orders',
    {
      schema: {
        tags,
        summary: "A customer's orders",
        description: `The purchases tracked for the customer, newest first. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: CustomerParamsSchema,
        querystring: HistoryQuerySchema,
        response: withErrors({ 200: CustomerOrdersSchema }, [404]),
      },
      ...limitOnly,
    },
    async (request) => {
      const { shop_id, profile_id } = request.params;
      const key = cursorKey(request.query.cursor, TIME_KEY);
      const before = key === null ? null : { time: key[0], id: key[1] };
      const page = await customers.orders(shop_id, Number(profile_id), before, request.query.limit ?? CUSTOMER_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return { items: page.items.map(toOrderBody), next_cursor: page.more && last ? encodeCursor([last.createdAt, last.id]) : null };
    },
  );

  app.get(
    '/shops/:shop_id/customers/:profile_id/messages',
    {
      schema: {
        tags,
        summary: 'The messages sent to a customer',
        description:
          'Every message the providers accepted for the customer (and for the profiles merged into it), newest first, with ' +
          'its opens and clicks; test sends, and deliveries queued or failed, are in the delivery log ' +
          `(\`GET …/messages?email=|phone=\`). ${PAGING}`,
        security: ADMIN_SECURITY,
        params: CustomerParamsSchema,
        querystring: HistoryQuerySchema,
        response: withErrors({ 200: CustomerMessagesSchema }, [404]),
      },
      ...limitOnly,
    },
    async (request) => {
      const { shop_id, profile_id } = request.params;
      const key = cursorKey(request.query.cursor, SENT_KEY);
      const after = key === null ? null : { sentAt: key[0], code: key[1], seq: key[2] };
      const page = await customers.messages(shop_id, Number(profile_id), after, request.query.limit ?? CUSTOMER_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return {
        items: page.items.map(toMessageBody),
        next_cursor: page.more && last ? encodeCursor([last.sentAt, last.code, last.seq]) : null,
      };
    },
  );

  done();
};

function toMessageBody(m: SentMessage): CustomerMessageBody {
  return {
    code: m.code,
    type: m.type,
    campaign_id: m.campaignId,
    channel: m.channel,
    sent_at: iso(m.sentAt),
    subject: m.subject,
    body: m.body,
    url: m.url,
    icon: m.icon,
    picture: m.picture,
    statistics: { ...m.statistics },
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

function toSummary(p: Profile): CustomerSummaryBody {
  return {
    id: p.id,
    email: p.email,
    phone: p.phone,
    external_id: p.externalId,
    loyalty_id: p.loyaltyId,
    telegram_id: p.telegramId,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

function toOrderBody(o: TrackedOrder): CustomerOrderBody {
  return {
    id: o.id,
    order_id: o.orderId,
    items: [...o.items],
    items_total: o.itemsTotal / 100,
    order_price: o.orderPrice === null ? null : o.orderPrice / 100,
    delivery_type: o.deliveryType,
    payment_type: o.paymentType,
    promocode: o.promocode,
    created_at: iso(o.createdAt),
  };
}
