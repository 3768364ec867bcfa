/**
 * The features of the probability-to-purchase model, from one customer's activity as it
 * stood at `now`. Anything after `now` is ignored: the rebuild job computes features at a
 * past cut-off and labels from what followed, and a later event would leak the label.
 * The request path computes one customer's row with `purchaseFeatures`; the build tallies
 * every customer at once with `PurchaseTally`, by the same rules (both go through
 * `featuresOf`). Pure.
 */

export interface CustomerActivity {
  readonly orders: readonly { readonly at: number; readonly revenue: number }[];
  /** Times of the customer's product views and cart events. */
  readonly activityTimes: readonly number[];
}

export const FEATURE_NAMES = [
  'days_since_last_purchase',
  'orders_365d',
  'log_revenue_365d',
  'activity_30d',
  'days_since_last_activity',
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Past a year without a purchase more days say little more; a customer who never bought sits here too. */
export const MAX_RECENCY_DAYS = 365;
/**
 * Views and carts are looked at over this window before `now` only: the build reads 90
 * days of views, and its features stand 30 days before the build, so 60 is what both the
 * build and a request can see alike.
 */
export const ACTIVITY_WINDOW_DAYS = 60;
/** Views and carts counted in the last 30 days stop here: a crawler's thousands of views are no stronger a signal. */
export const MAX_ACTIVITY_30D = 200;
export const ORDER_WINDOW_MS = 365 * DAY_MS;
export const ACTIVITY_WINDOW_MS = ACTIVITY_WINDOW_DAYS * DAY_MS;
const MONTH_MS = 30 * DAY_MS;

/** One customer's facts as of a cut-off: what featuresOf turns into a row. */
interface Facts {
  lastOrder: number;
  orders: number;
  revenue: number;
  activity30d: number;
  lastActivity: number;
  /** Bought within the label horizon after the cut-off (PurchaseTally only). */
  bought: boolean;
}

function emptyFacts(): Facts {
  return { lastOrder: -Infinity, orders: 0, revenue: 0, activity30d: 0, lastActivity: -Infinity, bought: false };
}

function addOrderTo(facts: Facts, at: number, revenue: number, now: number): void {
  if (at > now) return;
  facts.lastOrder = Math.max(facts.lastOrder, at);
  if (at > now - ORDER_WINDOW_MS) {
    facts.orders++;
    facts.revenue += revenue;
  }
}

function addActivityTo(facts: Facts, at: number, now: number): void {
  if (at > now || at <= now - ACTIVITY_WINDOW_MS) return;
  facts.lastActivity = Math.max(facts.lastActivity, at);
  if (at > now - MONTH_MS) facts.activity30d++;
}

/** One row in FEATURE_NAMES order. */
function featuresOf(facts: Facts, now: number): number[] {
  const recency = facts.lastOrder === -Infinity ? MAX_RECENCY_DAYS : Math.min(MAX_RECENCY_DAYS, (now - facts.lastOrder) / DAY_MS);
  const idle =
    facts.lastActivity === -Infinity ? ACTIVITY_WINDOW_DAYS : Math.min(ACTIVITY_WINDOW_DAYS, (now - facts.lastActivity) / DAY_MS);
  // Refunds can leave a year's revenue below 0; it counts as none.
  return [recency, facts.orders, Math.log1p(Math.max(0, facts.revenue)), Math.min(MAX_ACTIVITY_30D, facts.activity30d), idle];
}

/**
 * One customer's facts as a request reads them (one aggregate over the year's orders, the
 * newest views and carts): the row is the same as purchaseFeatures would make of the
 * orders and times themselves.
 */
export interface PurchaseSummary {
  /** The last order at or before `now` within the year; null for none. */
  readonly lastOrderAt: number | null;
  readonly orders365d: number;
  readonly revenue365d: number;
  /** Times of views and carts in the activity window, any order; only the last MAX_ACTIVITY_30D + 1 are needed. */
  readonly activityTimes: readonly number[];
}

export function summaryFeatures(summary: PurchaseSummary, now: number): number[] {
  const facts = emptyFacts();
  if (summary.lastOrderAt !== null && summary.lastOrderAt <= now) facts.lastOrder = summary.lastOrderAt;
  facts.orders = summary.orders365d;
  facts.revenue = summary.revenue365d;
  for (const at of summary.activityTimes) addActivityTo(facts, at, now);
  return featuresOf(facts, now);
}

/** One customer's row in FEATURE_NAMES order, as of `now`. */
export function purchaseFeatures(activity: CustomerActivity, now: number): number[] {
  const facts = emptyFacts();
  for (const order of activity.orders) addOrderTo(facts, order.at, order.revenue, now);
  for (const at of activity.activityTimes) addActivityTo(facts, at, now);
  return featuresOf(facts, now);
}

export interface TrainingRow {
  readonly profileId: number;
  readonly features: number[];
  readonly label: boolean;
}

/**
 * Every customer's features as of `at` and whether they bought in (`at`, `at` +
 * horizonMs], fed order by order and view by view as the build reads them, in any order.
 * Customers with no order in the year and no activity in the window before `at` are not
 * rows: they were not customers yet, or long gone, and would teach the model nothing a
 * request ever asks about.
 */
export class PurchaseTally {
  private readonly facts = new Map<number, Facts>();

  constructor(
    readonly at: number,
    readonly horizonMs: number,
  ) {}

  addOrder(profileId: number, at: number, revenue: number): void {
    if (at > this.at) {
      if (at <= this.at + this.horizonMs) this.get(profileId).bought = true;
      return;
    }
    if (at <= this.at - ORDER_WINDOW_MS) return;
    addOrderTo(this.get(profileId), at, revenue, this.at);
  }

  addActivity(profileId: number, at: number): void {
    if (at > this.at || at <= this.at - ACTIVITY_WINDOW_MS) return;
    addActivityTo(this.get(profileId), at, this.at);
  }

  *rows(): Generator<TrainingRow> {
    for (const [profileId, facts] of this.facts) {
      if (facts.orders === 0 && facts.lastActivity === -Infinity) continue;
      yield { profileId, features: featuresOf(facts, this.at), label: facts.bought };
    }
  }

  private get(profileId: number): Facts {
    let facts = this.facts.get(profileId);
    if (facts === undefined) this.facts.set(profileId, (facts = emptyFacts()));
    return facts;
  }
}
