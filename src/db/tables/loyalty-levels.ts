/** Kysely table types: loyalty levels and referrals (src/modules/loyalty, docs/loyalty.md). Amounts are minor units. Column conventions: db/dialect.ts. */

export type PurchaseStatus = 'confirmed' | 'cancelled';
/** open: waiting for the referee's first purchase; rewarded; closed without a reward; cancelled: the rewarded purchase was. */
export type ReferralStatus = 'open' | 'rewarded' | 'closed' | 'cancelled';

export interface LoyaltyLevelLaddersTable {
  shop_id: string;
  window_days: number;
  /** The due instant of the shop's daily recompute link; null when none runs. */
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface LoyaltyLevelsTable {
  shop_id: string;
  code: string;
  name: string;
  /** Minor units. */
  min_total: number;
  /** Hundredths of a percent. */
  reward_percent: number;
  position: number;
}

export interface LoyaltyPurchasesTable {
  shop_id: string;
  order_id: string;
  profile_id: number;
  /** Minor units, > 0. */
  amount: number;
  status: PurchaseStatus;
  purchased_at: number;
  updated_at: number;
}

export interface LoyaltyReferralProgramsTable {
  shop_id: string;
  /** 0/1. */
  enabled: number;
  reward_type: 'fixed' | 'percent';
  /** fixed: minor units of bonuses; percent: hundredths of a percent. */
  reward_value: number;
  created_at: number;
  updated_at: number;
}

export interface LoyaltyReferralCodesTable {
  shop_id: string;
  profile_id: number;
  code: string;
  created_at: number;
}

export interface LoyaltyReferralsTable {
  shop_id: string;
  referee_id: number;
  referrer_id: number;
  status: ReferralStatus;
  order_id: string | null;
  transaction_id: number | null;
  created_at: number;
  updated_at: number;
}
