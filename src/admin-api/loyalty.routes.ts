import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { parseHundredths, parsePositiveAmount, toUnits } from '../modules/loyalty/domain/amount.js';
import { DEFAULT_SETTINGS, type LoyaltySettings } from '../modules/loyalty/domain/settings.js';
import type { CurrentLevel } from '../modules/loyalty/loyalty-levels.service.js';
import type { MemberView } from '../modules/loyalty/loyalty.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { toMemberLevelBody } from './loyalty-levels.routes.js';
import {
  CreateMemberBodySchema,
  CreditBodySchema,
  DebitBodySchema,
  LoyaltySettingsSchema,
  MemberCreatedSchema,
  MemberParamsSchema,
  MemberViewSchema,
  PostedSchema,
  PutLoyaltySettingsBodySchema,
  type LoyaltySettingsBody,
  type MemberViewBody,
  type PutLoyaltySettingsBody,
} from './loyalty.schemas.js';

const tags = ['loyalty'];

/**
 * admin-api.md, Loyalty programme: the programme settings, members and the bonus
 * ledger's manual credit and debit (docs/loyalty.md). Amounts cross this edge in
 * currency units and are minor units everywhere behind it.
 */
export const loyaltyRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const loyalty = app.services.loyalty;

  app.get(
    '/shops/:shop_id/loyalty',
    {
      schema: {
        tags,
        summary: 'Read the loyalty programme (defaults before the first PUT)',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: LoyaltySettingsSchema }, [404]),
      },
    },
    async (request) => toSettingsBody(await loyalty.getSettings(request.params.shop_id)),
  );

  app.put(
    '/shops/:shop_id/loyalty',
    {
      schema: {
        tags,
        summary: 'Set the loyalty programme',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: PutLoyaltySettingsBodySchema,
        response: withErrors({ 200: LoyaltySettingsSchema }, [404, 415]),
      },
    },
    async (request) => toSettingsBody(await loyalty.putSettings(request.params.shop_id, fromSettingsBody(request.body ?? {}))),
  );

  app.post(
    '/shops/:shop_id/loyalty/members',
    {
      schema: {
        tags,
        summary: 'Make a profile a member (found or created by its identifiers)',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateMemberBodySchema,
        response: withErrors({ 201: MemberCreatedSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const { phone, email, loyalty_id: loyaltyId, external_id: externalId, referrer_code: referrerCode } = request.body;
      const input = { phone, email, loyaltyId, externalId };
      const member = await app.services.loyaltyReferrals.joinWithReferrer(request.params.shop_id, input, referrerCode);
      return reply.code(201).send({ identifier: member.identifier, balance: toUnits(member.balance) });
    },
  );

  app.get(
    '/shops/:shop_id/loyalty/members/:identifier',
    {
      schema: {
        tags,
        summary: 'Read a member: balance, pending bonuses and transactions, newest first',
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        response: withErrors({ 200: MemberViewSchema }, [404]),
      },
    },
    async (request) => toMemberBody(await app.services.loyaltyLevels.viewMember(request.params.shop_id, request.params.identifier)),
  );

  app.post(
    '/shops/:shop_id/loyalty/members/:identifier/bonuses',
    {
      schema: {
        tags,
        summary: 'Credit bonuses (a confirmed manual credit)',
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        body: CreditBodySchema,
        response: withErrors({ 201: PostedSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const { amount, expires_at: expiresAt, reason } = request.body;
      const posted = await loyalty.creditManual(request.params.shop_id, request.params.identifier, {
        amount: amountFromUnits(amount),
        expiresAt: expiresAt === undefined ? undefined : Date.parse(expiresAt),
        reason,
      });
      return reply.code(201).send({ transaction_id: posted.transactionId, balance: toUnits(posted.balance) });
    },
  );

  app.post(
    '/shops/:shop_id/loyalty/members/:identifier/bonuses/debit',
    {
      schema: {
        tags,
        summary: 'Debit bonuses with a reason (refused beyond the balance)',
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        body: DebitBodySchema,
        response: withErrors({ 201: PostedSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const posted = await loyalty.debitManual(request.params.shop_id, request.params.identifier, {
        amount: amountFromUnits(request.body.amount),
        reason: request.body.reason,
      });
      return reply.code(201).send({ transaction_id: posted.transactionId, balance: toUnits(posted.balance) });
    },
  );

  done();
};

/** An amount of the admin edge (currency units) → minor units; 422 naming `amount` otherwise. */
export function amountFromUnits(units: number): number {
  const parsed = parsePositiveAmount(units);
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', `Field \`amount\` ${parsed.requirement}.`, { field: 'amount' });
  return parsed.minor;
}

function hundredths(field: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = parseHundredths(value, min, max);
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', `Field \`${field}\` ${parsed.requirement}.`, { field });
  return parsed.minor;
}

function fromSettingsBody(body: PutLoyaltySettingsBody): LoyaltySettings {
  const d = DEFAULT_SETTINGS;
  const bonusValue = hundredths('bonus_value', body.bonus_value, d.bonusValue, 0, 1_000_000);
  if (bonusValue === 0) throw new AppError('VALIDATION_FAILED', 'Field `bonus_value` must be greater than 0.', { field: 'bonus_value' });
  return {
    rewardPercent: hundredths('reward_percent', body.reward_percent, d.rewardPercent, 0, 100),
    maxBonusSharePercent: hundredths('max_bonus_share_percent', body.max_bonus_share_percent, d.maxBonusSharePercent, 0, 100),
    bonusValue,
    bonusLifetimeDays: body.bonus_lifetime_days === undefined ? d.bonusLifetimeDays : body.bonus_lifetime_days,
    rewardPendingDays: body.reward_pending_days ?? d.rewardPendingDays,
  };
}

function toSettingsBody(s: LoyaltySettings): LoyaltySettingsBody {
  return {
    reward_percent: s.rewardPercent / 100,
    max_bonus_share_percent: s.maxBonusSharePercent / 100,
    bonus_value: s.bonusValue / 100,
    bonus_lifetime_days: s.bonusLifetimeDays,
    reward_pending_days: s.rewardPendingDays,
  };
}

function toMemberBody(view: MemberView & { level: CurrentLevel | null }): MemberViewBody {
  return {
    identifier: view.identifier,
    balance: toUnits(view.balance),
    pending: toUnits(view.pending),
    transactions: view.transactions.map((t) => ({
      id: t.id,
      amount: toUnits(t.amount),
      status: t.status,
      kind: t.kind,
      order_id: t.orderId,
      reason: t.reason,
      created_at: new Date(t.createdAt).toISOString(),
      expires_at: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
    })),
    level: toMemberLevelBody(view.level),
  };
}
