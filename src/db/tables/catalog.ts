/** Kysely table types: The served product feed by generation and its imports (src/modules/catalog). Column conventions: db/dialect.ts. */

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
  /**
   * JSON array of the location ids where discounted products of the category are sold;
   * null on rows staged before migration 0012 (the read then derives it from products).
   */
  discount_location_ids: string | null;
}

export interface CatalogLocationsTable {
  shop_id: string;
  generation: number;
  id: string;
  name: string | null;
  type: string | null;
  parent_id: string | null;
}

/** A product listed directly in a category of the feed, by generation (0037): the admin product browser's category filter. */
export interface CatalogProductCategoriesTable {
  shop_id: string;
  generation: number;
  /** The feed's (external) category id, as in catalog_products.category_ids. */
  category_id: string;
  product_id: string;
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
