/** Kysely table types: the loyalty programme and its ledger (src/modules/loyalty, docs/loyalty.md). Amounts are minor units. Column conventions: db/dialect.ts. */

export type LotStatus = 'pending' | 'confirmed' | 'cancelled';
export type LotKind = 'manual' | 'order_reward' | 'event_reward' | 'referral' | 'refund';
export type HoldStatus = 'active' | 'released' | 'captured';

export interface LoyaltySettingsTable {
  shop_id: string;
  /** Hundredths of a percent. */
  reward_percent: number;
  /** Hundredths of a percent. */
  max_bonus_share_percent: number;
  /** Minor units of currency one bonus pays for. */
  bonus_value: number;
  bonus_lifetime_days: number | null;
  reward_pending_days: number;
  created_at: number;
  updated_at: number;
}

export interface LoyaltySequencesTable {
  shop_id: string;
  last_id: number;
}

export interface LoyaltyMembersTable {
  shop_id: string;
  profile_id: number;
  /** Bumped by every ledger write of the member: the per-member lock. */
  version: number;
  created_at: number;
  updated_at: number;
  /** The member's level as last computed (migration 0018); null: none. */
  level_code: string | null;
  /** When that level would drop with no more purchases; null: never, or no level. */
  level_expires_at: number | null;
}

export interface LoyaltyTransactionsTable {
  shop_id: string;
  /** Per shop, from loyalty_sequences. */
  id: number;
  profile_id: number;
  /** A refund gives a debit or captured hold back to its lots (no lot of its own). */
  entry: 'credit' | 'debit' | 'hold' | 'refund';
  /** Signed minor units: credits positive, debits and holds negative. */
  amount: number;
  status: LotStatus;
  /** A lot kind for credits; `debit` or `order_hold` otherwise. */
  kind: string;
  reason: string | null;
  order_id: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface LoyaltyLotsTable {
  shop_id: string;
  /** The id of the credit transaction. */
  id: number;
  profile_id: number;
  amount: number;
  remaining: number;
  status: LotStatus;
  kind: LotKind;
  reason: string | null;
  order_id: string | null;
  expires_at: number | null;
  /** When a pending lot is due to be confirmed (migration 0017); null otherwise. */
  confirms_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface LoyaltyAllocationsTable {
  shop_id: string;
  transaction_id: number;
  lot_id: number;
  amount: number;
}

export interface LoyaltyHoldsTable {
  shop_id: string;
  /** The id of the hold transaction. */
  id: number;
  profile_id: number;
  order_id: string;
  amount: number;
  status: HoldStatus;
  created_at: number;
  updated_at: number;
}

/** The shop's upkeep chain (migration 0020): the instant of its next sweep link, null when none. */
export interface LoyaltyUpkeepTable {
  shop_id: string;
  next_sweep_at: number | null;
  updated_at: number;
}
