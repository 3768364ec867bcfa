import { CUSTOM_EVENT_CODE_PATTERN } from '../../shops/index.js';
import type { LoyaltySettings } from './settings.js';

/** Event rewards (docs/loyalty.md, "Event rewards"): which codes may have a rule, and the terms of a reward's lot. */

export const DAY_MS = 86_400_000;
/** As for custom event codes (admin-api.md, Custom event codes): POST /push/custom sends nothing else. */
export const EVENT_CODE_MAX_LENGTH = 64;

export function isEventCode(code: string): boolean {
  return code.length <= EVENT_CODE_MAX_LENGTH && CUSTOM_EVENT_CODE_PATTERN.test(code);
}

/**
 * What the programme says when a reward is given, fixed on its lot so that a later
 * change of the settings does not move rewards already given.
 */
export interface RewardTerms {
  readonly status: 'pending' | 'confirmed';
  /** When a pending reward becomes spendable; null when it is confirmed at once. */
  readonly confirmsAt: number | null;
  /** null: never expires. */
  readonly expiresAt: number | null;
}

/**
 * With `reward_pending_days` > 0 the reward is pending for that many days, else
 * confirmed at once. Its lifetime (`bonus_lifetime_days`) counts from when it becomes
 * spendable, so that a pending period never eats into the time a member has to spend it.
 */
export function rewardTerms(settings: Pick<LoyaltySettings, 'bonusLifetimeDays' | 'rewardPendingDays'>, now: number): RewardTerms {
  const confirmsAt = settings.rewardPendingDays > 0 ? now + settings.rewardPendingDays * DAY_MS : null;
  const spendableFrom = confirmsAt ?? now;
  return {
    status: confirmsAt === null ? 'confirmed' : 'pending',
    confirmsAt,
    expiresAt: settings.bonusLifetimeDays === null ? null : spendableFrom + settings.bonusLifetimeDays * DAY_MS,
  };
}
