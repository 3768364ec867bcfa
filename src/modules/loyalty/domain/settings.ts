/**
 * The programme settings of a shop (admin-api.md, Loyalty programme). Percents and
 * `bonus_value` are kept in hundredths, so that 2.5% is 250 and no float is stored.
 */
export interface LoyaltySettings {
  /** Hundredths of a percent of a confirmed order credited as bonuses. */
  readonly rewardPercent: number;
  /** Hundredths of a percent of what is left after discounts that bonuses may pay. */
  readonly maxBonusSharePercent: number;
  /** Hundredths of a currency unit one bonus pays for. */
  readonly bonusValue: number;
  /** Days a credit lives; null never expires. */
  readonly bonusLifetimeDays: number | null;
  /** Days a reward stays pending before it counts. */
  readonly rewardPendingDays: number;
}

/** Before the first PUT a programme rewards nothing and lets bonuses pay up to 100% (admin-api.md). */
export const DEFAULT_SETTINGS: LoyaltySettings = {
  rewardPercent: 0,
  maxBonusSharePercent: 10_000,
  bonusValue: 100,
  bonusLifetimeDays: null,
  rewardPendingDays: 0,
};

/** Upper bound of the day counts, about 100 years. */
export const MAX_SETTING_DAYS = 36_500;
