import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { buildFacetIndex, facetIndexWeight, type FacetIndex } from './domain/facet-index.js';
import type { ListingFilters } from './domain/facet-filters.js';
import { facetedPage, type FacetedPage, type FacetLimits, type ListingSort } from './domain/facets.js';
import type { CategoryRecord, ProductRecord } from './domain/product-view.js';
import type { Product } from './domain/product.schema.js';
import * as listingRepo from './listing.repo.js';
import * as productsRepo from './products.repo.js';
import { PromiseCache } from './promise-cache.js';
import type { ShopCurrency } from './catalog.types.js';

export interface ListingDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  /** The catalog's product view (ProductsService), so that a listed product reads as GET /products/get spells it. */
  readonly products: {
    viewProducts(shop: ShopCurrency, generation: number, products: readonly ProductRecord[]): Promise<Product[]>;
  };
}

export interface ListingQuery {
  readonly filters: ListingFilters;
  /** From 1. */
  readonly page: number;
  readonly limit: number;
  /** Rows skipped; given, it wins over `page`. */
  readonly offset?: number;
  /** Absent: the given order (search rank, or listing order). */
  readonly sort?: ListingSort;
  readonly facetLimits?: FacetLimits;
}

/** A page of listed products with the facets of every product that meets the filters. */
export interface Listing extends Omit<FacetedPage, 'ids'> {
  readonly products: Product[];
}

export interface CategoryListing extends Listing {
  readonly category: CategoryRecord;
}

export const CATEGORY_NOT_FOUND = 'Category not found';
/** Facet indexes per (shop, generation): a landing makes a new generation, the TTL frees memory. */
const FACET_INDEX_TTL_MS = 10 * 60_000;
const FACET_INDEX_MAX_ENTRIES = 256;
/** Products held by every facet index together; a catalog larger than this is indexed per request. */
const FACET_INDEX_MAX_ROWS = 2_000_000;

/** No products and no facets: a shop without a served catalog, a search that matched nothing. */
export const EMPTY_LISTING: Listing = { total: 0, products: [], brands: [], categories: [], filters: [], priceRange: null };

/**
 * The catalog as a storefront lists it: GET /products (every listed product), GET
 * /category/{id} (a category's subtree) and the filters, facets and pages of GET /search
 * (which ranks the matches and hands them here). One facet implementation for the three
 * (domain/facets.ts) over one index per served generation (domain/facet-index.ts).
 * Decisions: docs/search.md ("Filters and facets"), docs/catalog-read.md.
 */
export class ListingService {
  private readonly indexes: PromiseCache<FacetIndex>;

  constructor(private readonly deps: ListingDeps) {
    this.indexes = new PromiseCache<FacetIndex>({
      clock: deps.clock,
      ttlMs: FACET_INDEX_TTL_MS,
      maxEntries: FACET_INDEX_MAX_ENTRIES,
      maxWeight: FACET_INDEX_MAX_ROWS,
      weigh: facetIndexWeight,
    });
  }

  private get db() {
    return this.deps.db.db;
  }

  /** GET /products: a page of the listed products, in listing order, with the facets. */
  async list(shop: ShopCurrency, query: ListingQuery): Promise<Listing> {
    const generation = await this.deps.catalog.currentGeneration(shop.shopId);
    if (generation === 0) return EMPTY_LISTING;
    return this.page(shop, generation, null, query);
  }

  /**
   * GET /category/{id}: the category and a page of its subtree's products. `id` is a feed
   * id or, failing that, the last path segment of a category's URL (the slug the SDKs'
   * docs pass). NOT_FOUND when the served catalog has neither.
   */
  async category(shop: ShopCurrency, categoryId: string, query: ListingQuery): Promise<CategoryListing> {
    const generation = await this.deps.catalog.currentGeneration(shop.shopId);
    const index = generation === 0 ? undefined : await this.facetIndex(shop.shopId, generation);
    const scope = index?.categoryByExternalId.get(categoryId) ?? index?.categoryBySlug.get(categoryId);
    if (index === undefined || scope === undefined) throw new AppError('NOT_FOUND', CATEGORY_NOT_FOUND, { field: 'category' });
    const listing = await this.pageOf(shop, generation, index, null, query, scope);
    return { ...listing, category: index.categories[scope]! };
  }

  /**
   * A page of `ranked` (offer ids, best first; null: listing order) under the query's
   * filters, with the facets: search ranks, this filters, counts and pages.
   */
  async page(shop: ShopCurrency, generation: number, ranked: readonly string[] | null, query: ListingQuery): Promise<Listing> {
    const index = await this.facetIndex(shop.shopId, generation);
    return this.pageOf(shop, generation, index, ranked, query);
  }

  private async pageOf(
    shop: ShopCurrency,
    generation: number,
    index: FacetIndex,
    ranked: readonly string[] | null,
    query: ListingQuery,
    scope?: number,
  ): Promise<Listing> {
    const order = ranked === null ? null : rowsOf(index, ranked);
    const offset = query.offset ?? (query.page - 1) * query.limit;
    const { ids, ...facets } = facetedPage(
      index,
      order,
      query.filters,
      { offset, limit: query.limit, ...(query.sort && { sort: query.sort }), ...(query.facetLimits && { facetLimits: query.facetLimits }) },
      scope,
    );
    const records = await productsRepo.findProducts(this.db, shop.shopId, generation, ids);
    const byId = new Map(records.map((record) => [record.id, record]));
    const inOrder = ids.map((id) => byId.get(id)).filter((record): record is ProductRecord => record !== undefined);
    return { ...facets, products: await this.deps.products.viewProducts(shop, generation, inOrder) };
  }

  /** The facet index of a generation, built once and shared by concurrent requests. */
  facetIndex(shopId: string, generation: number): Promise<FacetIndex> {
    return this.indexes.getOrCompute(`${shopId}/${generation}`, async () => {
      const [sources, categories] = await Promise.all([
        listingRepo.listFacetSources(this.db, shopId, generation),
        productsRepo.listCategoryRecords(this.db, shopId, generation),
      ]);
      return buildFacetIndex(sources, categories);
    });
  }
}

/** The index rows of offer ids, in their order; an id the index lacks is skipped. */
function* rowsOf(index: FacetIndex, ids: readonly string[]): Iterable<number> {
  for (const id of ids) {
    const row = index.rowOf.get(id);
    if (row !== undefined) yield row;
  }
}
