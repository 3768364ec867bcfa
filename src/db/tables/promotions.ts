/** Kysely table types: promotions, promo codes, certificates (src/modules/promotions, docs/promotions.md). Column conventions: db/dialect.ts. */

export type PromoUseStatus = 'blocked' | 'used' | 'released' | 'cancelled';
export type CertificateHoldStatus = 'held' | 'released' | 'captured' | 'refunded';

export interface PromotionSequencesTable {
  shop_id: string;
  /** promotion | certificate | pool: id counters; revision: the count of writes of the shop's promotions. */
  kind: string;
  last_id: number;
}

export interface PromotionsTable {
  shop_id: string;
  id: number;
  name: string;
  status: string;
  starts_at: number | null;
  ends_at: number | null;
  priority: number;
  discount_type: string;
  /** Hundredths of a percent, or minor units for a fixed discount. */
  discount_value: number;
  min_order_total: number | null;
  by_promo_code: number;
  bonus_reward_percent: number;
  /** JSON: the condition lists and the special prices (promotions.repo.ts). */
  terms: string;
  version: number;
  created_at: number;
  updated_at: number;
}

export interface PromoCodesTable {
  shop_id: string;
  /** Upper case (domain/codes.ts). */
  code: string;
  promotion_id: number;
  usage_limit: number | null;
  per_member_limit: number | null;
  used: number;
  blocked: number;
  ends_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PromoCodeUsesTable {
  shop_id: string;
  order_id: string;
  code: string;
  profile_id: number | null;
  status: PromoUseStatus;
  created_at: number;
  updated_at: number;
}

export interface PromoCodeMembersTable {
  shop_id: string;
  code: string;
  profile_id: number;
  /** The member's uses and blocks of the code. */
  taken: number;
}

export interface CertificatePoolsTable {
  shop_id: string;
  id: number;
  name: string;
  created_at: number;
}

export interface CertificatesTable {
  shop_id: string;
  id: number;
  code: string;
  pool_id: number | null;
  amount: number;
  balance: number;
  held: number;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CertificateHoldsTable {
  shop_id: string;
  order_id: string;
  code: string;
  certificate_id: number;
  amount: number;
  status: CertificateHoldStatus;
  created_at: number;
  updated_at: number;
}
