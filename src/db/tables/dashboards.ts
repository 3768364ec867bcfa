/** Kysely table types: the dashboards' daily rollups (src/modules/dashboards, docs/dashboards.md). Amounts are minor units. */

export interface DashboardDaysTable {
  shop_id: string;
  /** YYYY-MM-DD in the shop's time zone at the moment the row was counted. */
  day: string;
  /** What is counted (modules/dashboards/domain/series.ts): `events`, `orders`, `revenue`, `sent` … */
  series: string;
  /** The event type for `events`, the channel for messages, '' otherwise. */
  key: string;
  value: number;
}

export interface DashboardActiveTable {
  shop_id: string;
  day: string;
  profile_id: number;
}

export interface DashboardFunnelsTable {
  shop_id: string;
  /** transactional | chain | bulk. */
  type: string;
  /** The message's mailing_id: the transactional mailing's id, the chain's or the bulk mailing's. */
  mailing_id: number;
  /** A channel; '' for what counts once per message (purchased, revenue). */
  channel: string;
  sent: number;
  delivered: number;
  bounced: number;
  opened: number;
  clicked: number;
  purchased: number;
  revenue: number;
}

export interface DashboardBackfillTable {
  shop_id: string;
  /** Rows written before this instant (or at ids up to the marks below) are counted by the backfill, later ones live. */
  cutoff: number;
  events_until: number;
  ledger_until: number;
  /** events | members | ledger | holds | deliveries | done. */
  phase: string;
  /** JSON: where the phase stopped (an id, or a key). */
  cursor: string;
  updated_at: number;
}
