import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { ProductImageView } from '../images/index.js';
import type { Shop } from '../shops/index.js';
import type { ProductActivityCounters } from '../tracking/index.js';
import type { PictureState } from './products.repo.js';

/** One import landing: the shop's served generation moves from `previousGeneration` to `generation`. */
export interface CatalogLanding {
  readonly shopId: string;
  /** 0 when the shop had no catalog before this import. */
  readonly previousGeneration: number;
  readonly generation: number;
  readonly now: number;
}

/**
 * Called inside the swap transaction, after catalogs.generation moved and BEFORE the rows
 * of older generations are deleted, so a listener can compare the two generations.
 */
export interface CatalogLandedListener {
  readonly name: string;
  onLanded(trx: Transaction<Database>, landing: CatalogLanding): Promise<void>;
}

/**
 * Told, in this process, once a landing has committed: every reader sees the new generation
 * from then on, so what it keeps of older ones can go. It must not throw.
 */
export type CatalogServedListener = (shopId: string, generation: number) => void;

/** Where an import came from (feed_imports.source). */
export type FeedSource = 'admin' | 'cli' | 'url';

/** The format of a feed document. */
export type FeedFormat = 'yml' | 'json';

export interface SkippedOffer {
  /** The offer id, or '' when the offer had none. */
  readonly id: string;
  readonly reason: string;
}

export interface FeedImportInput {
  readonly shopId: string;
  readonly format: FeedFormat;
  /** The document: a byte stream (an HTTP body, a file) or a whole string/Buffer. */
  readonly body: AsyncIterable<Buffer | string> | string | Buffer;
  readonly source: FeedSource;
  /** The charset a transport declared (Content-Type); for YML it wins over the XML declaration. */
  readonly charset?: string;
  /** Called now and then while the import reads (for a progress bar). */
  readonly onProgress?: (progress: FeedImportProgress) => void;
  /**
   * Told, once the import has ended, the longest stretch in ms its heartbeat left the
   * catalog row unmoved (ImportHeartbeat.longestGapMs; bench/import-heartbeat.bench.ts).
   */
  readonly onHeartbeatGap?: (ms: number) => void;
}

export interface FeedImportProgress {
  readonly bytes: number;
  readonly offers: number;
}

export interface FeedImportResult {
  readonly generation: number;
  readonly products: number;
  readonly categories: number;
  readonly locations: number;
  /** Every skipped offer's count; `skipped` holds at most the first 100. */
  readonly skippedCount: number;
  readonly skipped: readonly SkippedOffer[];
}

/**
 * One entry of catalog_products.params (a JSON array): the feed's `param` elements of one
 * name grouped, values in feed order. Values are strings from YML and strings or numbers
 * from a JSON feed; `unit` is the first unit attribute given for that name.
 */
export interface CatalogParam {
  readonly key: string;
  readonly values: readonly (string | number)[];
  readonly unit?: string;
}

/** One entry of the import log (feed_imports). */
export interface FeedImportRecord {
  readonly generation: number;
  readonly source: FeedSource;
  readonly status: 'running' | 'done' | 'failed';
  readonly products: number;
  readonly categories: number;
  readonly locations: number;
  readonly skippedCount: number;
  readonly skipped: readonly SkippedOffer[];
  readonly error: string | null;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

/** A shop's feed: where it is fetched from, how often, what is served, and the last import. */
export interface FeedStatus {
  readonly feedUrl: string | null;
  readonly refreshMinutes: number;
  /** 0 when no import has landed. */
  readonly generation: number;
  readonly landedAt: number | null;
  readonly nextFetchAt: number | null;
  readonly lastImport: FeedImportRecord | null;
}

export interface FeedSettingsPatch {
  /** null: no scheduled fetch (the feed is pushed through the admin API or the CLI). */
  readonly feedUrl?: string | null;
  readonly refreshMinutes?: number;
}

/** An offer as the checkout takes it: its name and its categories with all their ancestors. */
export interface ProductFact {
  readonly name: string | null;
  readonly categoryIds: string[];
}

/** The images module's batch lookup (services.images), by the links of the products' first pictures. */
export interface ProductImageSource {
  viewsFor(shopId: string, links: readonly string[]): Promise<ReadonlyMap<string, ProductImageView>>;
  /** The view of a picture whose row the caller read (undefined: no row). */
  viewOf(shopId: string, link: string, row: PictureState | undefined): ProductImageView;
}

/** Active product subscriptions of an item (the product-subscriptions module). */
export interface ProductTriggerCounts {
  readonly back_in_stock: number;
  readonly price_drop: number;
}

export type ShopCurrency = Pick<Shop, 'shopId' | 'currency'>;

export interface ProductCounters extends ProductActivityCounters {
  readonly triggers: ProductTriggerCounts;
}

export interface HiddenProduct {
  readonly uniqid: string;
  readonly price: number | null;
  readonly name: string;
  readonly url: string;
  readonly image_url: string | null;
  readonly image_downloading_error: string | null;
}

export interface HiddenProductsPage {
  readonly total: number;
  readonly items: readonly HiddenProduct[];
}
