/** Kysely table types: What is read beside the catalog: sliders, product pictures, product subscriptions and their alerts, the search log (src/modules/sliders, images, product-subscriptions, search). Column conventions: db/dialect.ts. */

export interface SlidersTable {
  shop_id: string;
  /** [A-Za-z0-9_-], 1 to 64 characters (modules/sliders/domain/slider.ts). */
  code: string;
  /** Pixels. */
  width: number;
  height: number;
  /** JSON array of slides in display order (modules/sliders/sliders.repo.ts). */
  slides: string;
  created_at: number;
  updated_at: number;
}

export interface ProductImagesTable {
  shop_id: string;
  /** Hex SHA-256 of `link` (modules/images/domain/links.ts). */
  link_hash: string;
  link: string;
  status: 'pending' | 'done' | 'failed';
  /** The one-sentence image_downloading_error of a failed picture. */
  error: string | null;
  /** When a failed picture may be tried again (ms since the epoch). */
  retry_at: number | null;
  /** The last time a landed catalog showed this picture. */
  seen_at: number;
  created_at: number;
  updated_at: number;
}

export interface ProductSubscriptionsTable {
  shop_id: string;
  kind: 'back_in_stock' | 'price_drop';
  item_id: string;
  profile_id: number;
  /** price_drop: minor units; null for back_in_stock. */
  price: number | null;
  status: 'active' | 'fired' | 'cancelled';
  created_at: number;
  updated_at: number;
  fired_at: number | null;
}

export interface ProductAlertsTable {
  shop_id: string;
  /** The catalog generation whose landing fired the alert. */
  generation: number;
  kind: 'back_in_stock' | 'price_drop';
  item_id: string;
  profile_id: number;
  /** Minor units. */
  old_price: number | null;
  new_price: number | null;
  subscribed_price: number | null;
  /** 'pending' until a chain takes it ('chained': runs of the shop's back_in_stock / price_drop chains started). */
  status: 'pending' | 'chained';
  created_at: number;
}

export interface SearchQueriesTable {
  shop_id: string;
  /** Random, below 2^53, made by the search service. */
  id: number;
  time: number;
  /** Normalised (modules/search/domain/query.ts): trimmed, lower-cased, whitespace collapsed. */
  query: string;
  type: 'full_search' | 'instant_search' | 'push';
  /** Products found; null when unknown (the search event of POST /push). */
  results: number | null;
  did: string | null;
  sid: string | null;
  /** The tracking event a pushed query came from; unique per shop. */
  event_id: number | null;
}

export interface ProductCollectionsTable {
  shop_id: string;
  /** 1 to 64 of [A-Za-z0-9_-] (modules/collections/domain/collection.ts). */
  id: string;
  name: string;
  /** JSON array of offer ids, in display order. */
  product_ids: string;
  created_at: number;
  updated_at: number;
}
