/** Kysely table types: event rewards of the loyalty programme (migration 0019, docs/loyalty.md "Event rewards"). Amounts are minor units. */

export interface LoyaltyEventRewardsTable {
  shop_id: string;
  /** A custom event code ([a-z0-9_], at most 64 characters). */
  event_code: string;
  /** Minor units, > 0. */
  amount: number;
  created_at: number;
  updated_at: number;
}

/** One row per member and code rewarded: its primary key is the "once" of the rule. */
export interface LoyaltyEventRewardedTable {
  shop_id: string;
  profile_id: number;
  event_code: string;
  /** The credit (an `event_reward` lot). */
  transaction_id: number;
  /** The event that earned it. */
  event_id: number;
  created_at: number;
}
