/** Kysely table types: the chain trigger detectors' state (src/modules/chains/triggers). Column conventions: db/dialect.ts. */

export interface ChainListWatchesTable {
  shop_id: string;
  profile_id: number;
  list: 'cart' | 'wish';
  /** The newest list event heard of (per-shop event id); the row only moves forward. */
  event_id: number;
  /** That event's time (ms). */
  changed_at: number;
  /** 0/1: 0 when the newest event was a purchase, which ends the abandoned cart. */
  armed: number;
}
