import { Type, type Static } from '@sinclair/typebox';
import { LEVEL_NAME_MAX_LENGTH, MAX_LEVELS, MAX_WINDOW_DAYS, MIN_WINDOW_DAYS } from '../modules/loyalty/domain/levels.js';
import { REFERRER_CODE_MAX_LENGTH } from '../modules/loyalty/domain/referral.js';

/** docs/loyalty.md "Levels" and "Referrals": amounts in currency units, percents with two decimals at most. */

const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const LevelSchema = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_-]+$', description: 'Unique in the ladder: a-z, 0-9, _ and -.' }),
    name: Type.String({ minLength: 1, maxLength: LEVEL_NAME_MAX_LENGTH, description: 'Shown to the member (the SDK reads it).' }),
    min_total: Type.Number({ minimum: 0, description: 'Confirmed purchases in the window that reach the level, currency units.' }),
    reward_percent: Percent("Percent of a confirmed order credited as bonuses at this level, instead of the programme's."),
  },
  { additionalProperties: false },
);

export const LadderSchema = Type.Object(
  {
    window_days: Type.Integer({ minimum: MIN_WINDOW_DAYS, maximum: MAX_WINDOW_DAYS, description: 'Days of purchases a level counts.' }),
    levels: Type.Array(LevelSchema, { maxItems: MAX_LEVELS, description: 'Lowest first: min_total strictly increasing.' }),
  },
  { description: 'The levels of the loyalty programme.' },
);
export type LadderBody = Static<typeof LadderSchema>;

export const PutLadderBodySchema = Type.Object(
  {
    window_days: Type.Optional(LadderSchema.properties.window_days),
    levels: LadderSchema.properties.levels,
  },
  { additionalProperties: false, description: 'Replaces the ladder whole; window_days defaults to 365.' },
);
export type PutLadderBody = Static<typeof PutLadderBodySchema>;

export const MemberLevelSchema = Type.Union(
  [
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      reward_percent: Percent("The level's reward percent."),
      expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'When the level drops if the member buys nothing more; null: never.',
      }),
    }),
    Type.Null(),
  ],
  { description: "The member's level; null below the lowest level." },
);
export type MemberLevelBody = Static<typeof MemberLevelSchema>;

const RewardSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('fixed'), Type.Literal('percent')], {
      description: 'fixed: `value` bonuses; percent: `value` percent of the purchase, in bonuses at the bonus value.',
    }),
    value: Type.Number({ minimum: 0, description: 'Bonuses (fixed) or a percent 0–100 (percent), two decimals at most.' }),
  },
  { additionalProperties: false },
);

export const PutReferralBodySchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether codes are taken and rewards given.' }),
    referrer_reward: RewardSchema,
  },
  { additionalProperties: false, description: "The referral programme: the referrer's reward for the referee's first confirmed purchase." },
);
export type PutReferralBody = Static<typeof PutReferralBodySchema>;

export const ReferralProgramSchema = Type.Object(
  {
    id: Type.Integer({ description: "The programme's id, as the checkout result names it (`referral_program`)." }),
    enabled: Type.Boolean(),
    referrer_reward: RewardSchema,
  },
  { description: 'The referral programme.' },
);
export type ReferralProgramBody = Static<typeof ReferralProgramSchema>;

export const MemberReferralSchema = Type.Object(
  {
    code: Type.String({ description: "The member's referral code, given on the first ask." }),
    referrals: Type.Integer({ description: 'Members who joined naming the code.' }),
    rewarded: Type.Integer({ description: 'Of them, those whose first purchase rewarded this member (and stands).' }),
  },
  { description: "A member's referral code and what it brought." },
);

export const ReferrerCodeField = Type.String({
  minLength: 1,
  maxLength: REFERRER_CODE_MAX_LENGTH,
  description: 'The referral code of the member who brought this one; unknown: 422.',
});
