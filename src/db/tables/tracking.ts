/** Kysely table types: Sessions, events, carts and wish lists, orders, product counters (src/modules/tracking). Column conventions: db/dialect.ts. */

export interface TrackingSequencesTable {
  shop_id: string;
  /** 'events' or 'orders'. */
  name: string;
  last_id: number;
}

export interface SessionsTable {
  shop_id: string;
  sid: string;
  did: string | null;
  started_at: number;
  last_activity_at: number;
}

export interface EventsTable {
  shop_id: string;
  /** Per shop, allocated from tracking_sequences; grows with every commit. */
  id: number;
  profile_id: number;
  did: string | null;
  sid: string | null;
  /** A push event name, or the custom event's code. */
  event: string;
  custom: number;
  time: number;
  /** JSON array of tracked items. */
  items: string;
  /** JSON object of the other parameters, under their contract names. */
  params: string;
  stream: string | null;
  segment: string | null;
  recommended_by: string | null;
  recommended_code: string | null;
  created_at: number;
}

export interface ProfileListsTable {
  shop_id: string;
  profile_id: number;
  list: 'cart' | 'wish';
  /** JSON array of tracked items. */
  items: string;
  updated_at: number;
}

export interface OrdersTable {
  shop_id: string;
  id: number;
  /** null when the purchase had none (an empty order_id counts as none). */
  order_id: string | null;
  event_id: number;
  profile_id: number;
  did: string | null;
  /** JSON array of tracked items. */
  items: string;
  delivery_type: string | null;
  payment_type: string | null;
  promocode: string | null;
  /** Minor units (kopecks): the sum of price × amount, each price rounded to kopecks once. */
  items_total: number;
  /** Minor units; the client's order_price, when given. */
  order_price: number | null;
  created_at: number;
  /** Minor units: the parts of the order the client names (trackPurchase), when given. */
  order_cash: number | null;
  order_bonuses: number | null;
  order_delivery: number | null;
  order_discount: number | null;
  channel: string | null;
  /** 0/1 flags; null when not sent. */
  tax_free: number | null;
  gift_package: number | null;
  delivery_address: string | null;
  /** JSON object of the order's custom properties (trackPurchase `custom`). */
  custom: string | null;
  /** The purchase event's stream. */
  stream: string | null;
}

export interface ProductCountersTable {
  shop_id: string;
  /** Bucket length in minutes. */
  granularity: number;
  /** Bucket start, ms since the epoch. */
  bucket: number;
  item_id: string;
  views: number;
  carts: number;
  purchases: number;
}
