import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import { hasListingFilters, type FacetLimits, type ListingFilters, type ListingSort } from '../catalog/index.js';
import { EMPTY_LISTING, type Listing, type ListingQuery } from '../catalog/index.js';
import type { Shop } from '../shops/index.js';
import type { StoredEvent, TrackingSubscriber } from '../tracking/index.js';
import { normalizeQuery, searchTerms, type SearchType } from './domain/query.js';
import {
  entryFromSearchEvent,
  MAX_NO_RESULT_QUERIES,
  noResultWindowStart,
  type NoResultQuery,
  type SearchLogEntry,
} from './domain/search-log.js';
import { PromiseCache } from '../catalog/index.js';
import { noResultPage, orderNoResultQueries, type NoResultKey } from './domain/no-result-page.js';
import * as repo from './search.repo.js';
import { randomId53 } from '../../random.js';

export type ShopCurrency = Pick<Shop, 'shopId' | 'currency'>;

export interface SearchDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  /**
   * The catalog's listing (ListingService): filters, facets and pages the ranked matches,
   * with the same rules as GET /products, and spells products as GET /products/get does.
   */
  readonly listing: {
    page(shop: ShopCurrency, generation: number, ranked: readonly string[] | null, query: ListingQuery): Promise<Listing>;
    list(shop: ShopCurrency, query: ListingQuery): Promise<Listing>;
  };
}

/** GET /search/blank: what a search box shows before the user types. */
export interface BlankSearch {
  /** The shop's most frequent submitted queries of the last two weeks that found something. */
  readonly popularQueries: readonly string[];
  /** The device's last distinct submitted queries, newest first (none without a device). */
  readonly lastQueries: readonly string[];
  /** The first listed products (GET /products' order: the feed's sales rate). */
  readonly products: Listing['products'];
}

export interface SearchInput {
  readonly shop: ShopCurrency;
  readonly type: SearchType;
  /** As the client sent it: not empty after trimming, at most MAX_SEARCH_QUERY_LENGTH characters. */
  readonly query: string;
  /** Products returned at most, 1 to MAX_SEARCH_LIMIT. */
  readonly limit: number;
  /** The page of results, from 1 (default 1). */
  readonly page?: number;
  /** Matches skipped; given, it wins over `page`. */
  readonly offset?: number;
  /** Brands, categories, locations, price and params that narrow the matches. */
  readonly filters?: ListingFilters;
  /** Absent: best match first. */
  readonly sort?: ListingSort;
  /** Caps of the category and brand facets. */
  readonly facetLimits?: FacetLimits;
  /** Attribution of the logged query. */
  readonly did?: string;
  readonly sid?: string;
}

export interface SearchResult extends Listing {
  /** The query as given. */
  readonly query: string;
}

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
export const MAX_SEARCH_PAGE = 1000;
/**
 * Matches that filters, facets and pages look at, best first: a query matching more (a
 * one-letter prefix typed into a large catalog) is filtered and faceted among its best
 * this many; unfiltered, products_total still counts every match. Reading and sorting
 * every match cost a one-letter prefix over 100,000 products 2.5 times its time
 * (docs/search.md).
 */
export const MAX_RANKED_MATCHES = 10_000;
/** Popular queries, last queries and products of GET /search/blank, at most. */
export const BLANK_QUERIES = 10;
export const BLANK_PRODUCTS = 10;
/** A shop's popular queries are counted at most this often per process. */
const POPULAR_QUERIES_TTL_MS = 60_000;
const POPULAR_QUERIES_MAX_SHOPS = 10_000;
/** How often one process prunes a shop's log rows that have left the window. */
const LOG_PRUNE_INTERVAL_MS = 10 * 60_000;
/** Random ids that collide with an existing row are drawn again, this many times at most. */
const ID_ATTEMPTS = 5;
export const SEARCH_LOG_SUBSCRIBER = 'search-log';

/**
 * Product search over the shop's served catalog (GET /search), the search log, and the
 * queries that found nothing (GET /search/no_result_queries). Rules: docs/search.md.
 */
export class SearchService {
  private readonly lastPrune = new Map<string, number>();
  private readonly popularQueries: PromiseCache<string[]>;
  private readonly noResultGroups: PromiseCache<NoResultQuery[]>;

  constructor(private readonly deps: SearchDeps) {
    this.popularQueries = new PromiseCache<string[]>({
      clock: deps.clock,
      ttlMs: POPULAR_QUERIES_TTL_MS,
      maxEntries: POPULAR_QUERIES_MAX_SHOPS,
      maxWeight: POPULAR_QUERIES_MAX_SHOPS,
    });
    this.noResultGroups = new PromiseCache<NoResultQuery[]>({
      clock: deps.clock,
      ttlMs: POPULAR_QUERIES_TTL_MS,
      maxEntries: POPULAR_QUERIES_MAX_SHOPS,
      maxWeight: POPULAR_QUERIES_MAX_SHOPS,
    });
  }

  private get db() {
    return this.deps.db.db;
  }

  /** Finds the products matching the query, best first, and logs the query with the count found. */
  async search(input: SearchInput): Promise<SearchResult> {
    const normalized = normalizeQuery(input.query);
    if (normalized === '') {
      throw new AppError('VALIDATION_FAILED', 'Parameter `search_query` must be a non-empty string.', {
        field: 'search_query',
      });
    }
    const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.trunc(input.limit) || DEFAULT_SEARCH_LIMIT));
    const { shopId } = input.shop;
    const terms = searchTerms(normalized, input.type);
    const generation = await this.deps.catalog.currentGeneration(shopId);
    const matches =
      generation === 0 || terms.length === 0
        ? { total: 0, ids: [] }
        : await repo.findRankedMatches(this.db, this.deps.db.dialect, { shopId, generation }, terms, MAX_RANKED_MATCHES);
    const filters = input.filters ?? {};
    const page = Math.min(MAX_SEARCH_PAGE, Math.max(1, Math.trunc(input.page ?? 1) || 1));
    const listed =
      matches.ids.length === 0
        ? EMPTY_LISTING
        : await this.deps.listing.page(input.shop, generation, matches.ids, {
            filters,
            page,
            limit,
            ...(input.offset !== undefined && { offset: input.offset }),
            ...(input.sort && { sort: input.sort }),
            ...(input.facetLimits && { facetLimits: input.facetLimits }),
          });
    // Unfiltered, every match counts, beyond the best MAX_RANKED_MATCHES the facets saw.
    const listing = hasListingFilters(filters) ? listed : { ...listed, total: Math.max(listed.total, matches.total) };
    // The log counts what the text found, whatever the filters: a query is a no-result
    // query when the catalog lacks what was asked for, not when a filter left nothing.
    await this.record({
      shopId,
      time: this.deps.clock.now(),
      query: normalized,
      type: input.type,
      results: matches.total,
      did: input.did ?? null,
      sid: input.sid ?? null,
      eventId: null,
    });
    return { ...listing, query: input.query };
  }

  /**
   * GET /search/blank: the shop's popular queries (counted once a minute per shop: a
   * group-by over two weeks of the log), the device's last queries, and the first listed
   * products.
   */
  async blank(shop: ShopCurrency, did: string | undefined): Promise<BlankSearch> {
    const since = noResultWindowStart(this.deps.clock.now());
    const { shopId } = shop;
    const [popularQueries, lastQueries, listing] = await Promise.all([
      this.popularQueries.getOrCompute(shopId, () => repo.listPopularQueries(this.db, shopId, since, BLANK_QUERIES)),
      did === undefined ? [] : repo.listDeviceQueries(this.db, shopId, did, since, BLANK_QUERIES),
      this.deps.listing.list(shop, { filters: {}, page: 1, limit: BLANK_PRODUCTS }),
    ]);
    return { popularQueries, lastQueries, products: listing.products };
  }

  /** The full searches of the last two weeks that found nothing, most frequent first. */
  async noResultQueries(shopId: string): Promise<NoResultQuery[]> {
    const since = noResultWindowStart(this.deps.clock.now());
    return repo.listNoResultQueries(this.db, shopId, since, MAX_NO_RESULT_QUERIES);
  }

  /**
   * A page of noResultQueries for the admin UI, after the key of the previous page's last
   * group. The groups are counted at most once a minute per shop (a group-by over two
   * weeks of the log), so that paging reads one list and the pages never overlap.
   */
  async noResultQueriesPage(shopId: string, after: NoResultKey | null, limit: number): Promise<{ items: NoResultQuery[]; more: boolean }> {
    const ordered = await this.noResultGroups.getOrCompute(shopId, async () => orderNoResultQueries(await this.noResultQueries(shopId)));
    return noResultPage(ordered, after, limit);
  }

  /**
   * Logs the `search` event of POST /push, once per event: delivery is at least once,
   * and a redelivered event finds its row and adds nothing. Answers whether it logged.
   */
  async recordSearchEvent(event: StoredEvent): Promise<boolean> {
    const entry = entryFromSearchEvent(event);
    return entry === undefined ? false : this.record(entry);
  }

  /** The tracking subscriber that feeds pushed search events to the log (the composition root lists it: src/services.ts). */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: SEARCH_LOG_SUBSCRIBER,
      accepts: (event) => entryFromSearchEvent(event) !== undefined,
      handle: async (event) => {
        await this.recordSearchEvent(event);
      },
    };
  }

  private async record(entry: SearchLogEntry): Promise<boolean> {
    await this.pruneIfDue(entry.shopId);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await repo.insertSearchLogEntry(this.db, randomId53(), entry);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= ID_ATTEMPTS) throw error;
      }
    }
  }

  private async pruneIfDue(shopId: string): Promise<void> {
    const now = this.deps.clock.now();
    if (now - (this.lastPrune.get(shopId) ?? -Infinity) < LOG_PRUNE_INTERVAL_MS) return;
    this.lastPrune.set(shopId, now);
    await repo.pruneSearchLog(this.db, shopId, noResultWindowStart(now));
  }
}
