/** Kysely table types: loyalty checkout orders (src/modules/checkout, docs/checkout.md). Column conventions: db/dialect.ts. */

export type CheckoutOrderStatus = 'created' | 'completed' | 'cancelled';

export interface CheckoutOrdersTable {
  shop_id: string;
  order_id: string;
  profile_id: number | null;
  /** The member's public identifier when the order has one. */
  identifier: string | null;
  status: CheckoutOrderStatus;
  /** JSON: the request as the service took it. */
  request: string;
  /** JSON: the calculation's result (CheckoutResult) and holds. */
  result: string;
  bonus_hold_id: number | null;
  reward_transaction_id: number | null;
  /** 1 when the steps of the current status have all run. */
  steps_done: number;
  order_total: number;
  order_to_pay: number;
  bonuses_charged: number;
  bonuses_reward: number;
  /**
   * The paid subscription the order was computed with (migration 0024): the request's
   * `subscription` when the order's member was subscribed to it; null otherwise
   * (docs/subscriptions.md "In the checkout").
   */
  subscription: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  cancelled_at: number | null;
}
