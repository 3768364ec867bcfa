import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ProductImageView } from '../images/images.types.js';
import { currencySymbol } from '../shops/domain/currency.js';
import type { Shop } from '../shops/domain/shop.js';
import type { ProductActivityCounters } from '../tracking/tracking.types.js';
import { buildCategoryTree, type CategoryTreeNode, type CategoryTreeQuery } from './domain/category-tree.js';
import { wholeUnits } from './domain/price.js';
import { toProductView, type CategoryRecord, type LocationRecord, type ProductRecord } from './domain/product-view.js';
import type { Product } from './domain/product.schema.js';
import * as repo from './products.repo.js';
import { PromiseCache } from './promise-cache.js';

/** The images module's batch lookup (services.images), by the links of the products' first pictures. */
export interface ProductImageSource {
  viewsFor(shopId: string, links: readonly string[]): Promise<ReadonlyMap<string, ProductImageView>>;
}

/** Active product subscriptions of an item (the product-subscriptions module). */
export interface ProductTriggerCounts {
  readonly back_in_stock: number;
  readonly price_drop: number;
}

export interface ProductsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  readonly tracking: { productCounters(shopId: string, itemId: string): Promise<ProductActivityCounters> };
  readonly triggers: { countActive(shopId: string, itemId: string): Promise<ProductTriggerCounts> };
  /** Absent until the images module is wired: every picture then shows its original link. */
  readonly images?: ProductImageSource;
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

interface CatalogLookups {
  readonly categories: ReadonlyMap<string, CategoryRecord>;
  readonly locations: ReadonlyMap<string, LocationRecord>;
}

/**
 * Product answers of GET /products/get, per (shop, generation, item): at most this long,
 * so a thumbnail made after the import shows within a minute.
 */
export const PRODUCT_VIEW_TTL_MS = 60_000;
const PRODUCT_VIEW_MAX_ENTRIES = 20_000;

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
 * The public reads of the catalog (interface.md endpoints 7, 8, 9 and 14): a product,
 * its counters, the category tree and the products hidden from the storefront. Every
 * read first takes the shop's served generation (one primary-key row), then reads that
 * generation only, so a landing import never shows half. Decisions: docs/catalog-read.md.
 */
export class ProductsService {
  private readonly treeCache: PromiseCache<CategoryTreeNode[]>;
  private readonly lookups: PromiseCache<CatalogLookups>;
  private readonly productViews: PromiseCache<Product | undefined>;

  constructor(private readonly deps: ProductsDeps) {
    this.treeCache = new PromiseCache<CategoryTreeNode[]>({
      clock: deps.clock,
      ttlMs: CATEGORY_TREE_TTL_MS,
      maxEntries: CATEGORY_CACHE_MAX_ENTRIES,
      maxWeight: CATEGORY_CACHE_MAX_NODES,
      weigh: countNodes,
    });
    this.productViews = new PromiseCache<Product | undefined>({
      clock: deps.clock,
      ttlMs: PRODUCT_VIEW_TTL_MS,
      maxEntries: PRODUCT_VIEW_MAX_ENTRIES,
      maxWeight: PRODUCT_VIEW_MAX_ENTRIES,
    });
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

  /** GET /products/get: the Product of an offer id; NOT_FOUND when the served catalog lacks it. */
  async getProduct(shop: ShopCurrency, itemId: string): Promise<Product> {
    const generation = await this.deps.catalog.currentGeneration(shop.shopId);
    if (generation === 0) throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND, { field: 'item_id' });
    // The busiest catalog read: a product's answer is kept per generation for a short
    // while (the only thing that changes within a generation is a thumbnail coming in).
    // The currency is part of the key because the answer carries its symbol.
    const key = JSON.stringify([shop.shopId, generation, shop.currency, itemId]);
    const view = await this.productViews.getOrCompute(key, async () => {
      const product = await repo.findProduct(this.db, shop.shopId, generation, itemId);
      return product ? (await this.viewProducts(shop, generation, [product]))[0] : undefined;
    });
    if (!view) throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND, { field: 'item_id' });
    return view;
  }

  /**
   * Products of one generation as the contract's Product objects, in the given order,
   * with their categories and locations from the per-generation lookups and their
   * thumbnails in one batch. Search
   * results go through here too.
   */
  async viewProducts(shop: ShopCurrency, generation: number, products: readonly ProductRecord[]): Promise<Product[]> {
    if (products.length === 0) return [];
    const { shopId } = shop;
    const pictures = products.map((p) => p.pictures[0]).filter((link): link is string => link !== undefined);
    const [lookups, images] = await Promise.all([this.catalogLookups(shopId, generation), this.findImages(shopId, pictures)]);
    const context = { currencySymbol: currencySymbol(shop.currency), ...lookups };
    return products.map((product) => {
      const picture = product.pictures[0];
      return toProductView(product, { ...context, image: picture === undefined ? null : images.get(picture) });
    });
  }

  /**
   * GET /products/counters: views, carts and purchases (tracking) and the active
   * subscriptions (triggers). NOT_FOUND for an item the served catalog lacks.
   */
  async productCounters(shopId: string, itemId: string): Promise<ProductCounters> {
    const generation = await this.deps.catalog.currentGeneration(shopId);
    const product = generation === 0 ? undefined : await repo.findProduct(this.db, shopId, generation, itemId);
    if (!product) throw new AppError('NOT_FOUND', PRODUCT_NOT_FOUND, { field: 'item' });
    const [activity, triggers] = await Promise.all([
      this.deps.tracking.productCounters(shopId, itemId),
      this.deps.triggers.countActive(shopId, itemId),
    ]);
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
    return this.treeCache.getOrCompute(key, async () =>
      buildCategoryTree(await repo.listTreeCategories(this.db, shopId, generation), query),
    );
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

function countNodes(nodes: CategoryTreeNode[]): number {
  let count = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count += 1;
    stack.push(...node.children);
  }
  return count;
}
