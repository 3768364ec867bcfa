/** Kysely table types: paid subscriptions (src/modules/subscriptions, docs/subscriptions.md). Column conventions: db/dialect.ts. */

export type SubscriptionStatus = 'inactive' | 'active' | 'archived';
export type SubscriptionHoldStatus = 'held' | 'captured' | 'released';

export interface SubscriptionsTable {
  shop_id: string;
  code: string;
  name: string;
  status: SubscriptionStatus;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionPlansTable {
  shop_id: string;
  subscription: string;
  code: string;
  name: string;
  status: SubscriptionStatus;
  period_days: number;
  /** JSON: the plan's benefits (domain/benefits.ts), money in minor units. */
  benefits: string;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionMembersTable {
  shop_id: string;
  subscription: string;
  profile_id: number;
  /** The member's public identifier when it subscribed (phone, else loyalty_id). */
  identifier: string;
  plan: string;
  /** YYYY-MM-DD in the shop's time zone: the first day of the first billing period. */
  started_on: string;
  /** YYYY-MM-DD: the last paid day. */
  paid_till: string;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionUsageTable {
  shop_id: string;
  subscription: string;
  profile_id: number;
  benefit: string;
  /** YYYY-MM-DD: the first day of the billing period the row counts. */
  period_start: string;
  savings_used: number;
  savings_held: number;
  usage_used: number;
  usage_held: number;
  updated_at: number;
}

export interface SubscriptionHoldsTable {
  shop_id: string;
  order_id: string;
  benefit: string;
  subscription: string;
  profile_id: number;
  period_start: string;
  savings: number;
  uses: number;
  status: SubscriptionHoldStatus;
  created_at: number;
  updated_at: number;
}
