/**
 * The referral programme, pure (docs/loyalty.md "Referrals"): the referrer's reward for
 * the referee's first confirmed purchase, and the shape of referral codes. No I/O, no
 * randomness: the service draws the random bytes a code is made of.
 */

export type ReferrerReward =
  /** Bonuses, minor units. */
  | { readonly type: 'fixed'; readonly value: number }
  /** Hundredths of a percent of the purchase, paid in bonuses at the programme's bonus value. */
  | { readonly type: 'percent'; readonly value: number };

export interface ReferralProgram {
  /** The shop has one referral programme; its id is what the checkout result names (`referral_program`). */
  readonly id: number;
  readonly enabled: boolean;
  readonly referrerReward: ReferrerReward;
}

export const REFERRAL_PROGRAM_ID = 1;

/** Before the first PUT a shop's referral programme is off and rewards nothing. */
export const DEFAULT_REFERRAL_PROGRAM: ReferralProgram = {
  id: REFERRAL_PROGRAM_ID,
  enabled: false,
  referrerReward: { type: 'fixed', value: 0 },
};

/**
 * The referrer's reward in bonus minor units for a purchase of `orderTotalMinor`
 * (currency minor units). A fixed reward is paid whatever the total; a percent reward
 * is that share of the total, turned into bonuses at `bonusValue` (hundredths of a
 * currency unit one bonus pays for), rounded down to a whole bonus kopeck: a reward is
 * never more than the percent promises. Exact integer arithmetic (BigInt), no float.
 */
export function referrerRewardFor(reward: ReferrerReward, orderTotalMinor: number, bonusValue: number): number {
  if (reward.type === 'fixed') return reward.value;
  if (orderTotalMinor <= 0 || bonusValue <= 0) return 0;
  // total × (value / 10000) currency minor units, ÷ (bonusValue / 100) currency units per bonus.
  const numerator = BigInt(orderTotalMinor) * BigInt(reward.value) * 100n;
  const denominator = 10_000n * BigInt(bonusValue);
  return Number(numerator / denominator);
}

/** Code letters: no 0/O, 1/I/L, so that a code read aloud or off a screen is typed right. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CODE_LENGTH = 8;
export const REFERRER_CODE_MAX_LENGTH = 32;

/** A code from random bytes (one byte a letter; the small bias of the modulo does not matter for a code that is not a secret). */
export function codeFromBytes(bytes: Uint8Array): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[(bytes[i] ?? 0) % CODE_ALPHABET.length];
  return code;
}

/** A code as a customer may type it: case and surrounding spaces and dashes do not matter. */
export function normalizeReferralCode(input: string): string {
  return input.trim().toUpperCase().replace(/[\s-]/g, '');
}
