/**
 * What the daily rollups count (docs/dashboards.md). A counter row is (day, series, key):
 * the key is the event type for `events`, the channel for the message series, '' otherwise.
 * Amounts are minor units. Pure.
 */

export const SERIES = {
  /** Stored events, by type (a push event's name or a custom event's code). */
  events: 'events',
  /** Distinct profiles with at least one event that day (dashboard_active holds who). */
  active: 'active',
  /** Orders tracked from purchase events (a repeated order_id is one order). */
  orders: 'orders',
  /** Their value: order_price when sent, else the sum of the items. */
  revenue: 'revenue',
  /** Profiles that joined the loyalty programme. */
  members: 'members',
  /** Bonuses credited (every credit, pending or confirmed). */
  bonusesIssued: 'bonuses_issued',
  /** Bonuses spent: debits of kind `debit` and order holds when captured. */
  bonusesSpent: 'bonuses_spent',
  /** Deliveries sent, by channel. */
  sent: 'sent',
  /** Deliveries first opened that day, by channel. */
  opened: 'opened',
  /** Deliveries first clicked that day, by channel. */
  clicked: 'clicked',
  /** Messages a purchase was attributed to that day, and the purchases' value. */
  attributedPurchases: 'attributed_purchases',
  attributedRevenue: 'attributed_revenue',
} as const;

export type Series = (typeof SERIES)[keyof typeof SERIES];

export interface DayCount {
  readonly day: string;
  readonly series: Series;
  readonly key: string;
  readonly value: number;
}

/** Adds counts that share a (day, series, key), so that a batch writes each counter once. */
export class DayCounts {
  private readonly counts = new Map<string, { day: string; series: Series; key: string; value: number }>();

  add(day: string, series: Series, key: string, value: number): void {
    if (value === 0) return;
    const id = `${day}\u0000${series}\u0000${key}`;
    const entry = this.counts.get(id);
    if (entry) entry.value += value;
    else this.counts.set(id, { day, series, key, value });
  }

  list(): DayCount[] {
    return [...this.counts.values()].filter((c) => c.value !== 0);
  }
}

/** A funnel's counters of one channel of one mailing (channel '' for purchases and revenue). */
export interface FunnelCount {
  readonly type: string;
  readonly mailingId: number;
  readonly channel: string;
  readonly sent?: number;
  readonly delivered?: number;
  readonly bounced?: number;
  readonly opened?: number;
  readonly clicked?: number;
  readonly purchased?: number;
  readonly revenue?: number;
}

export const FUNNEL_TYPES = ['transactional', 'chain', 'bulk'] as const;
export type FunnelType = (typeof FUNNEL_TYPES)[number];

export interface FunnelRow {
  readonly channel: string;
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly opened: number;
  readonly clicked: number;
  readonly purchased: number;
  readonly revenue: number;
}

export interface Funnel {
  readonly sent: number;
  readonly delivered: number;
  readonly opened: number;
  readonly clicked: number;
  readonly purchased: number;
  /** Minor units. */
  readonly revenue: number;
  readonly channels: ReadonlyArray<{ channel: string; sent: number; delivered: number; opened: number; clicked: number }>;
}

/**
 * A funnel from its rows. Delivered: for mobile push what the SDK reported delivered; for
 * every other channel, sent less hard bounces (email, SMS and the messengers report no
 * delivery of their own to Patron).
 */
export function funnelOf(rows: readonly FunnelRow[]): Funnel {
  const channels = rows
    .filter((r) => r.channel !== '')
    .map((r) => ({
      channel: r.channel,
      sent: r.sent,
      delivered: r.channel === 'mobile_push' ? r.delivered : Math.max(0, r.sent - r.bounced),
      opened: r.opened,
      clicked: r.clicked,
    }))
    .sort((a, b) => (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0));
  const sum = (pick: (r: FunnelRow) => number) => rows.reduce((total, r) => total + pick(r), 0);
  return {
    sent: channels.reduce((t, c) => t + c.sent, 0),
    delivered: channels.reduce((t, c) => t + c.delivered, 0),
    opened: channels.reduce((t, c) => t + c.opened, 0),
    clicked: channels.reduce((t, c) => t + c.clicked, 0),
    purchased: sum((r) => r.purchased),
    revenue: sum((r) => r.revenue),
    channels,
  };
}
