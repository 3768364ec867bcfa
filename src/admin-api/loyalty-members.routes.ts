import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { parsePositiveAmount, toUnits } from '../modules/loyalty/domain/amount.js';
import { decodeMemberCursor, encodeMemberCursor } from '../modules/loyalty/domain/member-list.js';
import type { LedgerEntry } from '../modules/loyalty/loyalty.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  LiabilitiesSchema,
  MEMBER_PAGE_DEFAULT,
  MemberListQuerySchema,
  MemberListSchema,
  TransactionPageQuerySchema,
  TransactionPageSchema,
  WriteOffBodySchema,
  type MemberListBody,
  type MemberListQuery,
  type TransactionPageBody,
} from './loyalty-members.schemas.js';
import { MemberParamsSchema, PostedSchema } from './loyalty.schemas.js';

const tags = ['loyalty'];

/**
 * Beyond admin-api.md's core for the loyalty programme (docs/loyalty.md, "Admin API"):
 * the member list, a member's transactions page by page, write-offs and the
 * programme's liabilities. Amounts cross this edge in currency units.
 */
export const loyaltyMembersRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { loyalty, loyaltyReports } = app.services;

  app.get(
    '/shops/:shop_id/loyalty/members',
    {
      schema: {
        tags,
        summary: 'List the programme members, newest first, with filters and paging',
        description:
          'Balances are computed when asked, at the current time. Paging is by `next_cursor`: a member who ' +
          'joins while the pages are read comes before the first page, so no member is skipped or repeated.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: MemberListQuerySchema,
        response: withErrors({ 200: MemberListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        queryNumber(request, 'limit');
        queryNumber(request, 'min_balance');
        queryNumber(request, 'max_balance');
        queryBoolean(request, 'has_pending');
        next();
      },
    },
    async (request) => {
      const query = request.query;
      const page = await loyaltyReports.listMembers(request.params.shop_id, {
        q: query.q,
        minBalance: balanceFromUnits('min_balance', query.min_balance),
        maxBalance: balanceFromUnits('max_balance', query.max_balance),
        joinedFrom: query.joined_from === undefined ? undefined : Date.parse(query.joined_from),
        joinedTo: query.joined_to === undefined ? undefined : Date.parse(query.joined_to),
        hasPending: query.has_pending,
        limit: query.limit ?? MEMBER_PAGE_DEFAULT,
        cursor: cursorOf(query),
      });
      const body: MemberListBody = {
        items: page.items.map((m) => ({
          identifier: m.identifier,
          balance: toUnits(m.balance),
          pending: toUnits(m.pending),
          joined_at: new Date(m.joinedAt).toISOString(),
        })),
        next_cursor: page.next === null ? null : encodeMemberCursor(page.next),
      };
      return body;
    },
  );

  app.get(
    '/shops/:shop_id/loyalty/members/:identifier/transactions',
    {
      schema: {
        tags,
        summary: "Page through a member's transactions, newest first",
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        querystring: TransactionPageQuerySchema,
        response: withErrors({ 200: TransactionPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        queryNumber(request, 'limit');
        queryNumber(request, 'before');
        next();
      },
    },
    async (request) => {
      const page = await loyaltyReports.listTransactions(request.params.shop_id, request.params.identifier, {
        limit: request.query.limit ?? MEMBER_PAGE_DEFAULT,
        before: request.query.before ?? null,
      });
      const body: TransactionPageBody = { items: page.items.map(toTransactionBody), next_before: page.nextBefore };
      return body;
    },
  );

  app.post(
    '/shops/:shop_id/loyalty/members/:identifier/bonuses/write-off',
    {
      schema: {
        tags,
        summary: 'Write bonuses off with a reason (refused beyond the balance)',
        description: 'A debit of kind `write_off`, drawn from the lots that expire first.',
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        body: WriteOffBodySchema,
        response: withErrors({ 201: PostedSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const amount = parsePositiveAmount(request.body.amount);
      if (!amount.ok) throw new AppError('VALIDATION_FAILED', `Field \`amount\` ${amount.requirement}.`, { field: 'amount' });
      const posted = await loyalty.debitManual(request.params.shop_id, request.params.identifier, {
        amount: amount.minor,
        reason: request.body.reason,
        kind: 'write_off',
      });
      return reply.code(201).send({ transaction_id: posted.transactionId, balance: toUnits(posted.balance) });
    },
  );

  app.get(
    '/shops/:shop_id/loyalty/liabilities',
    {
      schema: {
        tags,
        summary: "The programme's liabilities: bonuses outstanding, pending and expiring in the next 30 days",
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: LiabilitiesSchema }, [404]),
      },
    },
    async (request) => {
      const totals = await loyaltyReports.liabilities(request.params.shop_id);
      return {
        outstanding: toUnits(totals.outstanding),
        pending: toUnits(totals.pending),
        expiring_30_days: toUnits(totals.expiring),
        members: totals.members,
      };
    },
  );

  done();
};

/**
 * Query values are text and the app does not coerce types: a decimal number becomes a
 * number here, and anything else stays text for the schema to refuse naming the parameter.
 */
function queryNumber(request: FastifyRequest, name: string): void {
  const query = request.query as Record<string, unknown>;
  const value = query[name];
  if (typeof value === 'string' && /^-?[0-9]{1,16}(\.[0-9]{1,16})?$/.test(value)) query[name] = Number(value);
}

function queryBoolean(request: FastifyRequest, name: string): void {
  const query = request.query as Record<string, unknown>;
  const value = query[name];
  if (value === 'true' || value === 'false') query[name] = value === 'true';
}

/** A balance bound in currency units → minor units: 0 or more, two decimals at most. */
function balanceFromUnits(name: string, units: number | undefined): number | undefined {
  if (units === undefined || units === 0) return units;
  const parsed = units < 0 ? { ok: false as const, requirement: 'must be at least 0' } : parsePositiveAmount(units);
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', `Query parameter \`${name}\` ${parsed.requirement}.`, { field: name });
  return parsed.minor;
}

function cursorOf(query: MemberListQuery) {
  if (query.cursor === undefined) return null;
  const cursor = decodeMemberCursor(query.cursor);
  if (!cursor) throw new AppError('VALIDATION_FAILED', 'Query parameter `cursor` is not valid.', { field: 'cursor' });
  return cursor;
}

function toTransactionBody(t: LedgerEntry): TransactionPageBody['items'][number] {
  return {
    id: t.id,
    amount: toUnits(t.amount),
    status: t.status,
    kind: t.kind,
    order_id: t.orderId,
    reason: t.reason,
    created_at: new Date(t.createdAt).toISOString(),
    expires_at: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
  };
}
