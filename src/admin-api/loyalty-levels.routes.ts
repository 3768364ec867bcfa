import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { MAX_AMOUNT_MINOR, parseHundredths, parsePositiveAmount, toUnits } from '../modules/loyalty/domain/amount.js';
import { DEFAULT_WINDOW_DAYS, type CurrentLevel } from '../modules/loyalty/loyalty-levels.service.js';
import type { Ladder } from '../modules/loyalty/domain/levels.js';
import type { ReferralProgram, ReferrerReward } from '../modules/loyalty/domain/referral.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  LadderSchema,
  MemberReferralSchema,
  PutLadderBodySchema,
  PutReferralBodySchema,
  ReferralProgramSchema,
  type LadderBody,
  type MemberLevelBody,
  type PutLadderBody,
  type PutReferralBody,
  type ReferralProgramBody,
} from './loyalty-levels.schemas.js';
import { MemberParamsSchema } from './loyalty.schemas.js';

const tags = ['loyalty'];

/**
 * Loyalty levels and the referral programme (docs/loyalty.md "Levels", "Referrals"):
 * the ladder, the referral programme, and a member's referral code. Amounts cross this
 * edge in currency units, percents with two decimals; inside they are minor units and
 * hundredths.
 */
export const loyaltyLevelsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const levels = app.services.loyaltyLevels;
  const referrals = app.services.loyaltyReferrals;

  app.get(
    '/shops/:shop_id/loyalty/levels',
    {
      schema: {
        tags,
        summary: 'Read the levels of the loyalty programme (none before the first PUT)',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: LadderSchema }, [404]),
      },
    },
    async (request) => toLadderBody(await levels.getLadder(request.params.shop_id)),
  );

  app.put(
    '/shops/:shop_id/loyalty/levels',
    {
      schema: {
        tags,
        summary: "Replace the levels; every member's level is recomputed",
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: PutLadderBodySchema,
        response: withErrors({ 200: LadderSchema }, [404, 415]),
      },
    },
    async (request) => toLadderBody(await levels.putLadder(request.params.shop_id, fromLadderBody(request.body))),
  );

  app.get(
    '/shops/:shop_id/loyalty/referral',
    {
      schema: {
        tags,
        summary: 'Read the referral programme (off before the first PUT)',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ReferralProgramSchema }, [404]),
      },
    },
    async (request) => toProgramBody(await referrals.getProgram(request.params.shop_id)),
  );

  app.put(
    '/shops/:shop_id/loyalty/referral',
    {
      schema: {
        tags,
        summary: 'Set the referral programme',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: PutReferralBodySchema,
        response: withErrors({ 200: ReferralProgramSchema }, [404, 415]),
      },
    },
    async (request) => toProgramBody(await referrals.putProgram(request.params.shop_id, fromProgramBody(request.body))),
  );

  app.get(
    '/shops/:shop_id/loyalty/members/:identifier/referral',
    {
      schema: {
        tags,
        summary: "A member's referral code (given on the first ask) and the members it brought",
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        response: withErrors({ 200: MemberReferralSchema }, [404]),
      },
    },
    async (request) => referrals.memberReferral(request.params.shop_id, request.params.identifier),
  );

  done();
};

function invalid(field: string, requirement: string): AppError {
  return new AppError('VALIDATION_FAILED', `Field \`${field}\` ${requirement}.`, { field });
}

/** A non-negative amount in currency units with two decimals at most → minor units. */
function amountOrZero(field: string, units: number): number {
  if (units === 0) return 0;
  const parsed = parsePositiveAmount(units);
  if (!parsed.ok) throw invalid(field, parsed.requirement);
  return parsed.minor;
}

function percent(field: string, value: number): number {
  const parsed = parseHundredths(value, 0, 100);
  if (!parsed.ok) throw invalid(field, parsed.requirement);
  return parsed.minor;
}

function fromLadderBody(body: PutLadderBody): Ladder {
  return {
    windowDays: body.window_days ?? DEFAULT_WINDOW_DAYS,
    levels: body.levels.map((l, i) => ({
      code: l.code,
      name: l.name,
      minTotal: amountOrZero(`levels[${i}].min_total`, l.min_total),
      rewardPercent: percent(`levels[${i}].reward_percent`, l.reward_percent),
    })),
  };
}

function toLadderBody(ladder: Ladder): LadderBody {
  return {
    window_days: ladder.windowDays,
    levels: ladder.levels.map((l) => ({
      code: l.code,
      name: l.name,
      min_total: toUnits(l.minTotal),
      reward_percent: l.rewardPercent / 100,
    })),
  };
}

function fromProgramBody(body: PutReferralBody): { enabled: boolean; referrerReward: ReferrerReward } {
  const { type, value } = body.referrer_reward;
  const minor = type === 'fixed' ? amountOrZero('referrer_reward.value', value) : percent('referrer_reward.value', value);
  if (minor > MAX_AMOUNT_MINOR) throw invalid('referrer_reward.value', `must be at most ${MAX_AMOUNT_MINOR / 100}`);
  return { enabled: body.enabled, referrerReward: { type, value: minor } };
}

function toProgramBody(program: ReferralProgram): ReferralProgramBody {
  return {
    id: program.id,
    enabled: program.enabled,
    referrer_reward: { type: program.referrerReward.type, value: program.referrerReward.value / 100 },
  };
}

/** A member's level in the admin member view. */
export function toMemberLevelBody(level: CurrentLevel | null): MemberLevelBody {
  if (!level) return null;
  return {
    code: level.code,
    name: level.name,
    reward_percent: level.rewardPercent / 100,
    expires_at: level.expiresAt === null ? null : new Date(level.expiresAt).toISOString(),
  };
}
