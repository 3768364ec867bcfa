import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { TtlCache } from '../../ttl-cache.js';
import type { ProductImageView } from '../images/index.js';
import { currencySymbol } from '../shops/index.js';
import type { ProductActivityCounters } from '../tracking/index.js';
import { CategoryStatsCollector } from './domain/categories.js';
import {
  buildCategoryTree,
  countNodes,
  withAncestors,
  type CategoryTreeNode,
  type CategoryTreeQuery,
  type TreeCategoryRecord,
} from './domain/category-tree.js';
import { wholeUnits } from './domain/price.js';
import { toProductView, type CategoryRecord, type LocationRecord, type ProductRecord } from './domain/product-view.js';
import type { Product } from './domain/product.schema.js';
import { BatchLoader } from './batch-loader.js';
import * as repo from './products.repo.js';
import { PromiseCache } from './promise-cache.js';
import type {
  CatalogServedListener,
  HiddenProductsPage,
  ProductCounters,
  ProductFact,
  ProductImageSource,
  ProductTriggerCounts,
  ShopCurrency,
} from './catalog.types.js';

export interface ProductsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  /** Each read names many items of a shop; every item asked is in the answer. */
  readonly tracking: {
    productCountersOf(shopId: string, itemIds: readonly string[]): Promise<ReadonlyMap<string, ProductActivityCounters>>;
  };
  readonly triggers: { countActiveOf(shopId: string, itemIds: readonly string[]): Promise<ReadonlyMap<string, ProductTriggerCounts>> };
  /** Absent until the images module is wired: every picture then shows its original link. */
  readonly images?: ProductImageSource;
  /** Bytes of GET /products/get answers kept (config PATRON_PRODUCT_CACHE_MB); PRODUCT_ANSWERS_MAX_BYTES when absent. */
  readonly answerCacheBytes?: number;
}

interface CatalogLookups {
  readonly categories: ReadonlyMap<string, CategoryRecord>;
  readonly locations: ReadonlyMap<string, LocationRecord>;
}

/**
 * Product answers of GET /products/get, per (shop, generation, currency, item): at most
 * this long, so a thumbnail made after the import shows within a minute.
 */
export const PRODUCT_VIEW_TTL_MS = 60_000;
/**
 * The answers are kept as JSON text (UTF-8); this bounds their bytes over all shops, by
 * default (config PATRON_PRODUCT_CACHE_MB). Storefront traffic is skewed, so 64 MiB
 * (about 32,000 answers of 2 KB) serves most reads of a large catalog from memory, where a
 * third of that misses about twice as often (docs/catalog-read.md, "GET /products/get").
 */
export const PRODUCT_ANSWERS_MAX_BYTES = 64 * 1024 * 1024;
/**
 * What an answer costs besides its text: its key, its entry and its turn in the
 * eviction queue. Counted in its weight, so that many tiny answers cannot hold more
 * memory than the bound says.
 */
const PRODUCT_ANSWER_OVERHEAD_BYTES = 256;

/**
 * How long this process answers a cached product from the generation it last saw
 * served, before a read of the database tells it the current one. A landing in this
 * process is seen at once (the catalog's served listener); one by another process (a separate
 * `patron worker`, a CLI import, another API process) within this time, as for the shop
 * row cache of the public routes (SHOP_CACHE_TTL_MS).
 */
export const SERVED_GENERATION_TTL_MS = 2_000;
const SERVED_GENERATION_MAX_SHOPS = 10_000;

/** Category and location maps per (shop, generation): bounded by rows held in all. */
const LOOKUPS_TTL_MS = 10 * 60_000;
const LOOKUPS_MAX_ENTRIES = 256;
const LOOKUPS_MAX_ROWS = 1_000_000;

/** interface.md "Limits": categories are cached 60 s per parameter combination. */
export const CATEGORY_TREE_TTL_MS = 60_000;
export const CATEGORY_CACHE_MAX_ENTRIES = 512;
/** Tree nodes held by the cache over all entries (a node is a few hundred bytes). */
export const CATEGORY_CACHE_MAX_NODES = 500_000;
export const PRODUCT_NOT_FOUND = 'Product not found';
/**
 * Items per batched read (BatchLoader): enough for what one turn of the event loop
 * gathers of a shop under heavy load, so that a turn's misses are one statement; a lower
 * cap splits them into more statements, each paying its execution and round trip.
 */
export const PRODUCT_READ_BATCH = 32;

/**
 * The public reads of the catalog (interface.md endpoints 7, 8, 9 and 14): a product,
 * its counters, the category tree and the products hidden from the storefront. Every
 * read takes the shop's served generation (one primary-key row; GET /products/get in
 * the statement that reads the product), then reads that generation only, so a landing
 * import never shows half. Decisions: docs/catalog-read.md.
 */
export class ProductsService {
  private readonly treeCache: PromiseCache<CategoryTreeNode[]>;
  private readonly lookups: PromiseCache<CatalogLookups>;
  private readonly productAnswers: PromiseCache<Buffer>;
  /**
   * The reads of GET /products/get (misses) and GET /products/counters, per shop in
   * batches: one statement each per turn of the event loop (batch-loader.ts).
   */
  private readonly servedProducts: BatchLoader<repo.ServedProduct>;
  private readonly servedIds: BatchLoader<true>;
  private readonly activity: BatchLoader<ProductActivityCounters>;
  private readonly triggerCounts: BatchLoader<ProductTriggerCounts>;
  /** The served generation per shop, as the last product read found it. */
  private readonly servedGenerations: TtlCache<string, number>;
  /** Landings seen by this process: a read that overlapped one does not record its generation. */
  private landings = 0;

  constructor(private readonly deps: ProductsDeps) {
    this.treeCache = new PromiseCache<CategoryTreeNode[]>({
      clock: deps.clock,
      ttlMs: CATEGORY_TREE_TTL_MS,
      maxEntries: CATEGORY_CACHE_MAX_ENTRIES,
      maxWeight: CATEGORY_CACHE_MAX_NODES,
      weigh: countNodes,
    });
    const answerBytes = deps.answerCacheBytes ?? PRODUCT_ANSWERS_MAX_BYTES;
    this.productAnswers = new PromiseCache<Buffer>({
      clock: deps.clock,
      ttlMs: PRODUCT_VIEW_TTL_MS,
      maxEntries: Math.floor(answerBytes / PRODUCT_ANSWER_OVERHEAD_BYTES),
      maxWeight: answerBytes,
      weigh: (json) => json.length + PRODUCT_ANSWER_OVERHEAD_BYTES,
    });
    const batched = <V>(read: (shopId: string, itemIds: readonly string[]) => Promise<ReadonlyMap<string, V>>) =>
      new BatchLoader<V>({ maxBatch: PRODUCT_READ_BATCH, read });
    this.servedProducts = batched((shopId, itemIds) => repo.findServedProducts(this.db, shopId, itemIds));
    this.servedIds = batched(async (shopId, itemIds) => {
      const found = await repo.findServedProductIds(this.db, shopId, itemIds);
      return new Map([...found].map((id) => [id, true as const]));
    });
    this.activity = batched((shopId, itemIds) => deps.tracking.productCountersOf(shopId, itemIds));
    this.triggerCounts = batched((shopId, itemIds) => deps.triggers.countActiveOf(shopId, itemIds));
    this.servedGenerations = new TtlCache({ max: SERVED_GENERATION_MAX_SHOPS, ttlMs: SERVED_GENERATION_TTL_MS, clock: deps.clock });
    this.lookups = new PromiseCache<CatalogLookups>({
      clock: deps.clock,
      ttlMs: LOOKUPS_TTL_MS,
      maxEntries: LOOKUPS_MAX_ENTRIES,
      maxWeight: LOOKUPS_MAX_ROWS,
      weigh: (lookups) => lookups.categories.size + lookups.locations.size,
    });
  }

  private get db() {
    return this.deps.db.db;
  }

  /** The catalog's served listener: a landing in this process ends the generation reads trust. */
  servedListener(): CatalogServedListener {
    return (shopId) => {
      this.landings += 1;
      this.servedGenerations.delete(shopId);
    };
  }

  /**
   * GET /products/get: the Product of an offer id as JSON text (UTF-8), NOT_FOUND when
   * the served catalog lacks it. The busiest catalog read, so an answer is kept, as
   * text, per (shop, generation, currency, item) for PRODUCT_VIEW_TTL_MS (within a
   * generation only a thumbnail coming in changes it; the currency is in the key because
   * the answer carries its symbol). A miss finds the product in the generation served at
   * that moment, and which generation that is, in one statement shared with the other
   * misses of the shop in the same turn of the event loop (products.repo.findServedProducts,
   * through a BatchLoader); answers are taken from the cache under the generation the last
   * read found, for at most SERVED_GENERATION_TTL_MS.
   */
  async productJson(shop: ShopCurrency, itemId: string): Promise<Buffer> {
    const { shopId } = shop;
    const served = this.servedGenerations.get(shopId);
    const kept = served === undefined ? undefined : this.productAnswers.get(answerKey(shop, served, itemId));
    if (kept) return kept;
    const landings = this.landings;
    const found = await this.servedProducts.load(shopId, itemId);
    if (!found) throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND, { field: 'item_id' });
    if (landings === this.landings) this.servedGenerations.set(shopId, found.generation);
    return this.productAnswers.getOrCompute(answerKey(shop, found.generation, itemId), async () =>
      utf8OfItsOwn(JSON.stringify(await this.viewServedProduct(shop, found))),
    );
  }

  /** One product as its read found it: the picture's state came with it, unless the row predates picture_hash. */
  private async viewServedProduct(shop: ShopCurrency, found: repo.ServedProduct): Promise<Product> {
    const { product, picture } = found;
    const link = product.pictures[0];
    if (link !== undefined && picture === undefined) return (await this.viewProducts(shop, found.generation, [product]))[0]!;
    const images = new Map<string, ProductImageView>();
    if (link !== undefined && this.deps.images) images.set(link, this.deps.images.viewOf(shop.shopId, link, picture ?? undefined));
    return toViews(shop, await this.catalogLookups(shop.shopId, found.generation), [product], images)[0]!;
  }

  /**
   * Products of one generation as the contract's Product objects, in the given order,
   * with their categories and locations from the per-generation lookups and their
   * thumbnails in one batch. Search results go through here too.
   */
  async viewProducts(shop: ShopCurrency, generation: number, products: readonly ProductRecord[]): Promise<Product[]> {
    if (products.length === 0) return [];
    const { shopId } = shop;
    const pictures = products.map((p) => p.pictures[0]).filter((link): link is string => link !== undefined);
    const [lookups, images] = await Promise.all([this.catalogLookups(shopId, generation), this.findImages(shopId, pictures)]);
    return toViews(shop, lookups, products, images);
  }

  /**
   * The served products of these offer ids as Product objects, by id (the cart, order and
   * collection answers): an id the served catalog lacks is absent from the map. Reads the
   * served generation, then its products, so every product comes from one import.
   */
  async viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<Map<string, Product>> {
    if (itemIds.length === 0) return new Map();
    const generation = await this.deps.catalog.currentGeneration(shop.shopId);
    if (generation === 0) return new Map();
    const records = await repo.findProducts(this.db, shop.shopId, generation, itemIds);
    const views = await this.viewProducts(shop, generation, records);
    return new Map(views.map((view) => [view.id, view]));
  }

  /**
   * What the checkout needs of these offer ids in a generation (docs/checkout.md
   * "Inputs"): the name and the categories with all their ancestors, by id; an id the
   * generation lacks is absent from the map (product-facts.ts keeps them).
   */
  async productFactsIn(shopId: string, generation: number, itemIds: readonly string[]): Promise<Map<string, ProductFact>> {
    if (itemIds.length === 0) return new Map();
    const [records, lookups] = await Promise.all([
      repo.findProducts(this.db, shopId, generation, itemIds),
      this.catalogLookups(shopId, generation),
    ]);
    const parentOf = (id: string) => lookups.categories.get(id)?.parentExternalId ?? null;
    return new Map(records.map((r) => [r.id, { name: r.name, categoryIds: withAncestors(r.categoryIds, parentOf) }]));
  }

  /**
   * GET /products/counters: views, carts and purchases (tracking) and the active
   * subscriptions (triggers). NOT_FOUND for an item the served catalog lacks. The three
   * reads run side by side, each shared with the other counters asked of the shop in the
   * same turn of the event loop.
   */
  async productCounters(shopId: string, itemId: string): Promise<ProductCounters> {
    const [served, activity, triggers] = await Promise.all([
      this.servedIds.load(shopId, itemId),
      this.activity.load(shopId, itemId),
      this.triggerCounts.load(shopId, itemId),
    ]);
    if (!served) throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND, { field: 'item' });
    if (!activity || !triggers) throw new Error(`The counters of item ${itemId} were not read`);
    return { daily: activity.daily, now: activity.now, triggers };
  }

  /**
   * GET /products/categories. Cached per (shop, generation, normalised parameters) for
   * 60 s: a landed import has a new generation, so its first read misses, in every
   * process. The caller has checked shop_secret before, so the secret plays no part in
   * the key and no secret is kept in memory.
   */
  async categoryTree(shopId: string, query: CategoryTreeQuery): Promise<CategoryTreeNode[]> {
    const generation = await this.deps.catalog.currentGeneration(shopId);
    if (generation === 0) return [];
    const key = JSON.stringify([
      shopId,
      generation,
      query.depth,
      [...query.exclude].sort(),
      query.locations === null ? null : [...query.locations].sort(),
      query.onlyDiscount,
    ]);
    return this.treeCache.getOrCompute(key, async () => buildCategoryTree(await this.treeRecords(shopId, generation), query));
  }

  /**
   * The categories of a generation for the tree. A catalog landed before migration 0012
   * has no discount locations on its categories: they are derived from its discounted
   * products (the tree cache then keeps the answer), until the next import stores them.
   */
  private async treeRecords(shopId: string, generation: number): Promise<TreeCategoryRecord[]> {
    const rows = await repo.listTreeCategories(this.db, shopId, generation);
    if (rows.every((row) => row.discountLocationIds !== null)) return rows as TreeCategoryRecord[];
    const [products, locations] = await Promise.all([
      repo.listDiscountedProductPlaces(this.db, shopId, generation),
      repo.listLocationRecords(this.db, shopId, generation),
    ]);
    const stats = new CategoryStatsCollector();
    for (const product of products) stats.add(product);
    const feedLocationIds = locations.map((location) => location.id);
    return rows.map((row) => ({
      ...row,
      discountLocationIds: row.discountLocationIds ?? stats.statsOf(row.externalId, feedLocationIds).discountLocationIds,
    }));
  }

  /** GET /products/not_widgetable: one page of the hidden products and their total. */
  async notWidgetable(shopId: string, page: { limit: number; offset: number }): Promise<HiddenProductsPage> {
    const generation = await this.deps.catalog.currentGeneration(shopId);
    if (generation === 0) return { total: 0, items: [] };
    const [total, products] = await Promise.all([
      repo.countNotWidgetable(this.db, shopId, generation),
      repo.listNotWidgetable(this.db, shopId, generation, page),
    ]);
    const pictures = products.map((p) => p.pictures[0]).filter((link): link is string => link !== undefined);
    const images = await this.findImages(shopId, pictures);
    return {
      total,
      items: products.map((product) => {
        const picture = product.pictures[0] ?? null;
        return {
          uniqid: product.id,
          price: product.price === null ? null : wholeUnits(product.price),
          name: product.name ?? '',
          url: product.url ?? '',
          image_url: picture,
          image_downloading_error: picture === null ? null : (images.get(picture)?.error ?? null),
        };
      }),
    };
  }

  /**
   * The categories and locations of one generation, read whole and kept per (shop,
   * generation): every product answer needs its categories' ancestors, and a walk up
   * the tree in SQL per request costs more than the rest of the request. A landed import
   * is a new generation, so a stale map is never read; the TTL only frees memory.
   */
  private catalogLookups(shopId: string, generation: number): Promise<CatalogLookups> {
    return this.lookups.getOrCompute(`${shopId}/${generation}`, async () => {
      const [categories, locations] = await Promise.all([
        repo.listCategoryRecords(this.db, shopId, generation),
        repo.listLocationRecords(this.db, shopId, generation),
      ]);
      return {
        categories: new Map(categories.map((c) => [c.externalId, c])),
        locations: new Map(locations.map((l) => [l.id, l])),
      };
    });
  }

  private async findImages(shopId: string, links: readonly string[]): Promise<ReadonlyMap<string, ProductImageView>> {
    if (!this.deps.images || links.length === 0) return new Map();
    return this.deps.images.viewsFor(shopId, [...new Set(links)]);
  }
}

/** Products as the contract's Product objects, each with its first picture's thumbnails when `images` has them. */
function toViews(
  shop: ShopCurrency,
  lookups: CatalogLookups,
  products: readonly ProductRecord[],
  images: ReadonlyMap<string, ProductImageView>,
): Product[] {
  const context = { currencySymbol: currencySymbol(shop.currency), ...lookups };
  return products.map((product) => {
    const picture = product.pictures[0];
    return toProductView(product, { ...context, image: picture === undefined ? null : images.get(picture) });
  });
}

/**
 * The text as UTF-8 in memory of its own: Buffer.from would cut small answers from
 * Node's shared 8 KB pool, and a cached answer would keep its whole pool slab alive.
 */
function utf8OfItsOwn(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** Offer ids may hold any character, so the id comes last; the other parts cannot hold a NUL. */
function answerKey(shop: ShopCurrency, generation: number, itemId: string): string {
  return `${shop.shopId}\u0000${generation}\u0000${shop.currency}\u0000${itemId}`;
}
