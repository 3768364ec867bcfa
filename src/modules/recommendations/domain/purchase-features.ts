/**
 * The features of the probability-to-purchase model, from one customer's activity as it
 * stood at `now`. Anything after `now` is ignored: the rebuild job computes features at a
 * past cut-off and labels from what followed, and a later event would leak the label.
 * Pure.
 */

export interface CustomerActivity {
  readonly orders: readonly { readonly at: number; readonly revenue: number }[];
  /** Times of the customer's tracked events of any kind. */
  readonly eventTimes: readonly number[];
  readonly firstSeenAt: number;
}

export const FEATURE_NAMES = [
  'days_since_last_purchase',
  'orders_365d',
  'log_revenue_365d',
  'events_30d',
  'days_since_first_seen',
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Past a year without a purchase more days say little more; a customer who never bought sits here too. */
export const MAX_RECENCY_DAYS = 365;
export const MAX_AGE_DAYS = 3650;
const YEAR_MS = 365 * DAY_MS;
const MONTH_MS = 30 * DAY_MS;

/** One row in FEATURE_NAMES order. */
export function purchaseFeatures(activity: CustomerActivity, now: number): number[] {
  let lastOrder = -Infinity;
  let orders = 0;
  let revenue = 0;
  for (const order of activity.orders) {
    if (order.at > now) continue;
    lastOrder = Math.max(lastOrder, order.at);
    if (order.at > now - YEAR_MS) {
      orders++;
      revenue += order.revenue;
    }
  }
  let events = 0;
  for (const at of activity.eventTimes) if (at <= now && at > now - MONTH_MS) events++;
  const recency = lastOrder === -Infinity ? MAX_RECENCY_DAYS : Math.min(MAX_RECENCY_DAYS, (now - lastOrder) / DAY_MS);
  const age = Math.min(MAX_AGE_DAYS, Math.max(0, (now - activity.firstSeenAt) / DAY_MS));
  // Refunds can leave a year's revenue below 0; it counts as none.
  return [recency, orders, Math.log1p(Math.max(0, revenue)), events, age];
}
