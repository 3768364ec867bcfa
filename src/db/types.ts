import type { Generated } from 'kysely';

/**
 * Kysely table types. Column conventions are in db/dialect.ts.
 * Every table that holds shop data leads its primary key with shop_id.
 */

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface ShopsTable {
  shop_id: string;
  secret_hash: string;
  name: string;
  currency: string;
  timezone: string;
  active: number;
  restricted: number;
  /** YYYY-MM-DD, or null for no payment limit. */
  paid_till: string | null;
  created_at: number;
  updated_at: number;
}

export interface CustomEventCodesTable {
  shop_id: string;
  code: string;
  name: string | null;
  created_at: number;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  idempotency_key: string | null;
  /** How many times the job was claimed; retry limits are the registered handler's. */
  attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface ProfilesTable {
  shop_id: string;
  /** Random, below 2^53, made by the identity service. */
  id: number;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  loyalty_id: string | null;
  telegram_id: string | null;
  /** JSON object. */
  properties: string;
  /** Set on a merged profile (a tombstone): the profile it lives on in. */
  merged_into: number | null;
  created_at: number;
  updated_at: number;
}

export interface DevicesTable {
  shop_id: string;
  did: string;
  profile_id: number;
  created_at: number;
  last_seen_at: number;
}

export interface ProfileMergesTable {
  shop_id: string;
  id: number;
  from_profile_id: number;
  into_profile_id: number;
  reason: string;
  /** JSON object: the identifiers involved. */
  identifiers: string;
  created_at: number;
}

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

export interface CatalogsTable {
  shop_id: string;
  /** The generation readers see; 0 while no import has landed. */
  generation: number;
  /** The last generation handed to an import. */
  last_generation: number;
  landed_at: number | null;
  feed_url: string | null;
  refresh_minutes: number;
  next_fetch_at: number | null;
  updated_at: number;
}

export interface FeedImportsTable {
  shop_id: string;
  generation: number;
  source: 'admin' | 'cli' | 'url';
  status: 'running' | 'done' | 'failed';
  products: number;
  categories: number;
  locations: number;
  skipped_count: number;
  /** JSON array of {id, reason}, bounded. */
  skipped: string;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

export interface CatalogCategoryIdsTable {
  shop_id: string;
  external_id: string;
  id: number;
}

export interface CatalogCategoriesTable {
  shop_id: string;
  generation: number;
  external_id: string;
  id: number;
  parent_external_id: string | null;
  name: string;
  url: string | null;
  level: number;
  product_count: number;
  discount_product_count: number;
  /** JSON array of location ids. */
  location_ids: string;
}

export interface CatalogLocationsTable {
  shop_id: string;
  generation: number;
  id: string;
  name: string | null;
  type: string | null;
  parent_id: string | null;
}

export interface CatalogProductsTable {
  shop_id: string;
  generation: number;
  id: string;
  group_id: string | null;
  available: number;
  name: string | null;
  description: string | null;
  url: string | null;
  /** Minor units (kopecks). */
  price: number | null;
  oldprice: number | null;
  currency_id: string | null;
  /** JSON array of external category ids. */
  category_ids: string;
  /** JSON array of links. */
  pictures: string;
  /** Hex SHA-256 of the first picture link (product_images.link_hash); null without one, or on rows staged before 0011. */
  picture_hash: string | null;
  vendor: string | null;
  model: string | null;
  vendor_code: string | null;
  barcode: string | null;
  /** JSON array of {key, values[]}. */
  params: string;
  /** JSON array of location ids; [] = everywhere. */
  location_ids: string;
  deeplink_android: string | null;
  deeplink_ios: string | null;
  sales_rate: number | null;
  ignored: number;
  widgetable: number;
}

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
  status: 'pending';
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

export interface AudienceSequencesTable {
  shop_id: string;
  /** 'segments' or 'imports'. */
  name: string;
  last_id: number;
}

export interface SegmentsTable {
  shop_id: string;
  /** Per shop, from audience_sequences. */
  id: number;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface SegmentMembersTable {
  shop_id: string;
  segment_id: number;
  profile_id: number;
  created_at: number;
}

export interface CustomPropertiesTable {
  shop_id: string;
  /** [a-z0-9_], 1 to 64 characters (modules/audience/domain/custom-properties.ts). */
  code: string;
  type: 'string' | 'integer' | 'float' | 'boolean' | 'date' | 'datetime';
  name: string | null;
  created_at: number;
}

/** The audience record's fields beyond identifiers and custom properties; null = never given. */
export interface AudienceProfilesTable {
  shop_id: string;
  profile_id: number;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  /** 'm' or 'f'. */
  gender: string | null;
  /** YYYY-MM-DD. */
  birthday: string | null;
  location: string | null;
  loyalty_card_location: string | null;
  loyalty_status: string | null;
  fb_id: string | null;
  vk_id: string | null;
  /** JSON array of {gender?, birthday?}. */
  kids: string | null;
  /** JSON array of {brand?, model?, vds?}. */
  auto: string | null;
  age: number | null;
  loyalty_bonuses: number | null;
  loyalty_bonuses_to_next_level: number | null;
  /** Flags: 0/1. */
  bought_something: number | null;
  email_bulk: number | null;
  email_chain: number | null;
  email_transactional: number | null;
  sms_bulk: number | null;
  sms_chain: number | null;
  sms_transactional: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProfilePushTokensTable {
  shop_id: string;
  token: string;
  platform: 'ios' | 'android';
  profile_id: number;
  created_at: number;
  updated_at: number;
}

export interface AudienceImportsTable {
  shop_id: string;
  /** Per shop, from audience_sequences. */
  id: number;
  kind: 'audience';
  source: 'api' | 'cli';
  segment_id: number | null;
  /** 'receiving' while the CLI is still storing chunks; not listed until queued. */
  status: 'receiving' | 'queued' | 'running' | 'done' | 'failed';
  received: number;
  chunks: number;
  /** The cursor: the next chunk to process. */
  next_chunk: number;
  processed: number;
  imported: number;
  skipped: number;
  profiles_created: number;
  /** JSON object (modules/audience/domain/import-log.ts). */
  log: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface AudienceImportChunksTable {
  shop_id: string;
  import_id: number;
  seq: number;
  first_index: number;
  records: number;
  /** UTF-8: the raw records' JSON texts, separated by commas (a JSON array without its brackets). */
  body: Buffer;
}

export interface Database {
  settings: SettingsTable;
  shops: ShopsTable;
  custom_event_codes: CustomEventCodesTable;
  jobs: JobsTable;
  profiles: ProfilesTable;
  devices: DevicesTable;
  profile_merges: ProfileMergesTable;
  tracking_sequences: TrackingSequencesTable;
  sessions: SessionsTable;
  events: EventsTable;
  profile_lists: ProfileListsTable;
  orders: OrdersTable;
  product_counters: ProductCountersTable;
  catalogs: CatalogsTable;
  feed_imports: FeedImportsTable;
  catalog_category_ids: CatalogCategoryIdsTable;
  catalog_categories: CatalogCategoriesTable;
  catalog_locations: CatalogLocationsTable;
  catalog_products: CatalogProductsTable;
  sliders: SlidersTable;
  product_images: ProductImagesTable;
  product_subscriptions: ProductSubscriptionsTable;
  product_alerts: ProductAlertsTable;
  search_queries: SearchQueriesTable;
  audience_sequences: AudienceSequencesTable;
  segments: SegmentsTable;
  segment_members: SegmentMembersTable;
  custom_properties: CustomPropertiesTable;
  audience_profiles: AudienceProfilesTable;
  profile_push_tokens: ProfilePushTokensTable;
  audience_imports: AudienceImportsTable;
  audience_import_chunks: AudienceImportChunksTable;
}
