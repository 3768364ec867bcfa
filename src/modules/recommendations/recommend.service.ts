import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import {
  brandKey,
  compileListingFilters,
  failedFilters,
  type FacetIndex,
  type ProductFacts as CatalogFacts,
  type ShopCurrency,
} from '../catalog/index.js';
import type { IdentityService } from '../identity/index.js';
import type { TrackedItem } from '../tracking/index.js';
import { isValidBlockCode } from './domain/block.js';
import {
  categoryRows,
  feedOrder,
  knownCategories,
  leafCategories,
  rowCategories,
  rowFacts,
  rowsInCategories,
  type CategoryRows,
} from './domain/catalog-view.js';
import { DAY_MS, type ScoredItem } from './domain/popularity.js';
import { asksCondition, assembleBlock, recommendersFor, type Recommender, type Rule } from './domain/rules.js';
import { similarProducts, type ProductFacts } from './domain/similar.js';
import {
  historyOf,
  interestingAnchors,
  interestingFor,
  mergeNeighbours,
  recentlyViewed,
  type CustomerHistory,
} from './domain/request-lists.js';
import type { Block } from './blocks.service.js';
import * as history from './history.repo.js';
import type { ModelReads } from './model-reads.js';

/**
 * GET /recommend/{code} (contract-notes "Beyond interface.md"): a block's rules, asked
 * with what the request tells of the visitor and the product, answered from the stored
 * models (model-reads.ts), the served catalog's facet index and the visitor's own recent
 * events. Never the current item, the cart, what the visitor bought in the last
 * RECENT_PURCHASE_MS, or a product the storefront may not show. Decisions:
 * docs/recommendations.md "GET /recommend".
 */

export interface RecommendQuery {
  readonly code: string;
  readonly did?: string;
  /** The visitor by profile instead of device (the admin UI's preview). */
  readonly profileId?: number;
  readonly item?: string;
  /** Feed category ids: only products in them (or below them). */
  readonly categories?: readonly string[];
  readonly exclude?: readonly string[];
  readonly searchQuery?: string;
  /** Already within 1..MAX_BLOCK_LIMIT; absent: the block's own limit. */
  readonly limit?: number;
  readonly page: number;
  readonly locations?: readonly string[];
  readonly brands?: readonly string[];
  readonly excludeBrands?: readonly string[];
  /** Only products with a discount. */
  readonly discount: boolean;
}

export interface Recommendation {
  readonly block: Pick<Block, 'id' | 'code' | 'title'>;
  /** Offer ids, best first. */
  readonly ids: readonly string[];
  /** Which recommender put each id in (the preview of the admin UI shows it). */
  readonly sources: ReadonlyMap<string, Recommender | 'fallback'>;
}

export interface RecommendDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly blocks: { findBlock(shopId: string, code: string): Promise<Block | undefined> };
  readonly models: ModelReads;
  readonly catalog: { currentGeneration(shopId: string): Promise<number> };
  readonly listing: { facetIndex(shopId: string, generation: number): Promise<FacetIndex> };
  readonly productFacts: Pick<CatalogFacts, 'productFacts'>;
  readonly identity: Pick<IdentityService, 'findDevice' | 'profileIdsOf' | 'getProfileOnly'>;
  readonly tracking: { getLists(shopId: string, profileId: number): Promise<{ readonly cart: readonly TrackedItem[] }> };
  readonly search: { normalizeQuery(raw: string): string };
}

/** Product events read per request: the newest, within HISTORY_MS. */
export const HISTORY_EVENTS = 100;
export const HISTORY_MS = 90 * DAY_MS;
/** What the visitor bought this recently is not recommended again. */
export const RECENT_PURCHASE_MS = 30 * DAY_MS;
/** Cart items whose neighbours also_bought / also_viewed merge when the request names no product. */
export const CART_ANCHORS = 5;
/** Candidates `similar` ranks at most (the best-selling of the product's categories first). */
export const SIMILAR_CANDIDATES = 2000;
/** `similar` answers kept per catalog generation (about 20 ids each). */
export const SIMILAR_KEPT = 20_000;
/** Feed products beyond the block's need read for popular: room for exclusions and filters. */
export const POPULAR_FEED_MARGIN = 100;
/** Pages beyond are answered empty; a block is at most this many times its limit deep. */
export const MAX_RECOMMEND_PAGE = 10;

export class RecommendService {
  /**
   * Per facet index: its products by category, built at the first `similar` of that
   * generation, and `similar`'s answers by product and length: one depends on the
   * generation's facts alone, and ranking SIMILAR_CANDIDATES products is the dearest step
   * of a product page's block. At most SIMILAR_KEPT answers, then they start over.
   */
  private readonly byCategory = new WeakMap<FacetIndex, { readonly rows: CategoryRows; readonly answers: Map<string, string[]> }>();

  constructor(private readonly deps: RecommendDeps) {}

  async recommend(shop: ShopCurrency, query: RecommendQuery): Promise<Recommendation> {
    const { shopId } = shop;
    const block = isValidBlockCode(query.code) ? await this.deps.blocks.findBlock(shopId, query.code) : undefined;
    if (!block) throw blockNotFound(query.code);
    const limit = query.limit ?? block.limit;
    const answer = (ids: readonly string[], sources: ReadonlyMap<string, Recommender | 'fallback'>): Recommendation => ({
      block: { id: block.id, code: block.code, title: block.title },
      ids,
      sources,
    });
    const generation = await this.deps.catalog.currentGeneration(shopId);
    if (generation === 0 || query.page > MAX_RECOMMEND_PAGE) return answer([], new Map());
    const now = this.deps.clock.now();
    const [index, customer] = await Promise.all([
      this.deps.listing.facetIndex(shopId, generation),
      this.customer(shopId, query, now, block.rules),
    ]);
    const itemRow = query.item === undefined ? undefined : index.rowOf.get(query.item);
    const itemCategories = await this.itemCategories(shopId, index, query.item, itemRow);
    const recommenders = recommendersFor(block.rules, {
      hasItem: query.item !== undefined,
      hasCart: customer.cart.length > 0,
      knownCustomer: customer.known,
      itemCategories: itemCategories.map((c) => index.categories[c]!.externalId),
    });
    const want = limit * query.page;
    const context: ListContext = { shopId, query, index, itemRow, itemCategories, customer, now, want };

    const exclude = new Set<string>(query.exclude);
    if (query.item !== undefined) exclude.add(query.item);
    for (const item of customer.cart) exclude.add(item.id);
    for (const id of customer.history.purchasedSince(now - RECENT_PURCHASE_MS)) exclude.add(id);
    const isAvailable = this.eligibility(index, query);
    // The rules' lists in order, until they fill the block: a later list could add nothing
    // (assembleBlock takes each list whole before the next), and `similar` ranks up to
    // SIMILAR_CANDIDATES products, so a product with enough also_bought skips it.
    const lists: string[][] = [];
    let ids: string[] = [];
    for (const recommender of recommenders) {
      lists.push(await this.listOf(recommender, context));
      ids = assembleBlock(lists, { limit: want, exclude, isAvailable });
      if (ids.length >= want) break;
    }
    const sources = new Map<string, Recommender | 'fallback'>();
    const origin = (id: string) => recommenders[lists.findIndex((list) => list.includes(id))]!;
    if (ids.length === 0 && query.page === 1) {
      // A shop without the signal its rules need still shows products (popular, which
      // falls back to the feed's order), never an empty block while products exist.
      ids = assembleBlock([await this.popular(shopId, index, want)], { limit: want, exclude, isAvailable });
      for (const id of ids) sources.set(id, 'fallback');
    } else for (const id of ids) sources.set(id, origin(id));
    return answer(ids.slice(limit * (query.page - 1)), sources);
  }

  /** The visitor as the request's did knows them: cart, recent product events, whether identified. */
  private async customer(shopId: string, query: RecommendQuery, now: number, rules: readonly Rule[]): Promise<Customer> {
    const device = query.did === undefined ? undefined : await this.deps.identity.findDevice(shopId, query.did);
    const profileId = query.profileId ?? device?.profileId;
    if (profileId === undefined) return { cart: [], history: historyOf([]), known: false };
    const [profileIds, lists, profile] = await Promise.all([
      this.deps.identity.profileIdsOf(shopId, profileId),
      this.deps.tracking.getLists(shopId, profileId),
      asksCondition(rules, 'known_customer') || query.profileId !== undefined
        ? this.deps.identity.getProfileOnly(shopId, profileId)
        : undefined,
    ]);
    // A profile asked for by id must exist (the preview's 404); a device's always does.
    if (query.profileId !== undefined && profile === undefined)
      throw new AppError('NOT_FOUND', 'Customer not found.', { field: 'profile_id' });
    const rows = await history.listRecentProductEvents(this.deps.db.db, shopId, profileIds, now - HISTORY_MS, HISTORY_EVENTS);
    const known =
      profile !== undefined &&
      [profile.email, profile.phone, profile.externalId, profile.loyaltyId, profile.telegramId].some((value) => value !== null);
    return { cart: lists.cart, history: historyOf(rows), known };
  }

  /** The current product's categories with their ancestors (index entries), also for a product the storefront cannot show. */
  private async itemCategories(shopId: string, index: FacetIndex, item: string | undefined, row: number | undefined): Promise<number[]> {
    if (item === undefined) return [];
    if (row !== undefined) return rowCategories(index, row);
    const facts = (await this.deps.productFacts.productFacts(shopId, [item])).get(item);
    return facts ? knownCategories(index, facts.categoryIds) : [];
  }

  private async listOf(recommender: Recommender, c: ListContext): Promise<string[]> {
    const { shopId, index, customer, want } = c;
    switch (recommender) {
      case 'popular':
        return this.popular(shopId, index, want);
      case 'trending':
      case 'buying_now':
        return ids(await this.deps.models.shopList(shopId, recommender));
      case 'also_bought':
      case 'also_viewed': {
        const anchors = c.query.item !== undefined ? [c.query.item] : customer.cart.slice(0, CART_ANCHORS).map((item) => item.id);
        const lists = await this.deps.models.neighboursOf(shopId, recommender, anchors);
        return ids(mergeNeighbours(anchors.map((anchor) => lists.get(anchor) ?? [])));
      }
      case 'similar':
        return this.similar(c);
      case 'interesting':
        return this.interesting(c);
      case 'recently_viewed':
        return recentlyViewed(customer.history.events);
      case 'search': {
        const text = c.query.searchQuery === undefined ? '' : this.deps.search.normalizeQuery(c.query.searchQuery);
        if (text === '') return [];
        return ids((await this.deps.models.neighboursOf(shopId, 'search', [text])).get(text) ?? []);
      }
    }
  }

  private async popular(shopId: string, index: FacetIndex, want: number): Promise<string[]> {
    const list = await this.deps.models.shopList(shopId, 'popular');
    // What sold, best first; then the feed's own order (its sales_rate), which stands in
    // alone before the first build and fills a block beyond the products that ever sold.
    return [...ids(list), ...feedOrder(index, want + list.length + POPULAR_FEED_MARGIN)];
  }

  private similar(c: ListContext): string[] {
    const { index, itemRow, itemCategories, want } = c;
    if (c.query.item === undefined || itemCategories.length === 0) return [];
    let kept = this.byCategory.get(index);
    if (!kept) {
      kept = { rows: categoryRows(index), answers: new Map() };
      this.byCategory.set(index, kept);
    }
    // A product the storefront cannot show has its categories from a read, not the index: not kept.
    const key = itemRow === undefined ? undefined : `${itemRow}\n${want}`;
    const known = key === undefined ? undefined : kept.answers.get(key);
    if (known) return known;
    const current: ProductFacts =
      itemRow !== undefined
        ? rowFacts(index, itemRow)
        : {
            id: c.query.item,
            price: null,
            categories: leafCategories(index, itemCategories).map((category) => index.categories[category]!.externalId),
            params: {},
          };
    const leaves = leafCategories(index, itemCategories);
    const rows = rowsInCategories(kept.rows, leaves, SIMILAR_CANDIDATES);
    const answer = similarProducts(
      current,
      rows.map((row) => rowFacts(index, row)),
      { limit: want * 2 },
    );
    if (key !== undefined) {
      if (kept.answers.size >= SIMILAR_KEPT) kept.answers.clear();
      kept.answers.set(key, answer);
    }
    return answer;
  }

  private async interesting(c: ListContext): Promise<string[]> {
    const { shopId, customer, index, now, want } = c;
    const events = customer.history.events;
    const anchors = interestingAnchors(events);
    const [bought, viewed] = await Promise.all([
      this.deps.models.neighboursOf(shopId, 'also_bought', anchors),
      this.deps.models.neighboursOf(shopId, 'also_viewed', anchors),
    ]);
    const result = interestingFor(events, (kind, item) => (kind === 'also_bought' ? bought : viewed).get(item) ?? [], {
      now,
      limit: want * 2,
    });
    // Too little history: popular fills the rest, after what the history did give.
    return result.enough ? result.ids : [...result.ids, ...(await this.popular(shopId, index, want))];
  }

  /** Whether a product may be answered: the storefront shows it, and it meets the request's filters. */
  private eligibility(index: FacetIndex, query: RecommendQuery): (id: string) => boolean {
    // brands, categories and locations as listings filter them (one implementation: catalog's facet filters).
    const filters = compileListingFilters(index, {
      ...(query.brands && { brands: query.brands }),
      ...(query.categories && { categories: query.categories }),
      ...(query.locations && { locations: query.locations }),
    });
    const excludedBrands = brandSet(index, query.excludeBrands);
    return (id) => {
      const row = index.rowOf.get(id);
      if (row === undefined) return false;
      if (query.discount && !(index.discount[row]! > 0)) return false;
      if (excludedBrands !== undefined && excludedBrands.has(index.brandOf[row]!)) return false;
      return failedFilters(index, row, filters) === 0;
    };
  }
}

interface Customer {
  readonly cart: readonly TrackedItem[];
  readonly history: CustomerHistory;
  readonly known: boolean;
}

interface ListContext {
  readonly shopId: string;
  readonly query: RecommendQuery;
  readonly index: FacetIndex;
  readonly itemRow: number | undefined;
  readonly itemCategories: readonly number[];
  readonly customer: Customer;
  readonly now: number;
  /** Products the answer needs before exclusions: limit × page. */
  readonly want: number;
}

function ids(list: readonly ScoredItem[]): string[] {
  return list.map((item) => item.id);
}

function brandSet(index: FacetIndex, names: readonly string[] | undefined): Set<number> | undefined {
  if (names === undefined) return undefined;
  const found = new Set<number>();
  for (const name of names) {
    const brand = index.brandByKey.get(brandKey(name));
    if (brand !== undefined) found.add(brand);
  }
  return found;
}

export function blockNotFound(code: string): AppError {
  // A code that cannot exist is not echoed: it may be anything a caller typed.
  return new AppError(
    'NOT_FOUND',
    isValidBlockCode(code) ? `Recommendation block \`${code}\` does not exist.` : 'Recommendation block does not exist.',
  );
}
