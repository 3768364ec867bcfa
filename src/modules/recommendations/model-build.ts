import type { TrackedItem } from '../tracking/index.js';
import { CoOccurrence, DEFAULT_MAX_BASKET_ITEMS, type Neighbour } from './domain/co-occurrence.js';
import { DAY_MS, diversify, type ScoredItem } from './domain/popularity.js';
import { trainPredictor, type Predictor } from './domain/predictor.js';
import { ACTIVITY_WINDOW_MS, PurchaseTally } from './domain/purchase-features.js';
import { SalesTally } from './domain/sales-tally.js';
import { SearchPurchases } from './domain/search-purchases.js';
import * as repo from './models.repo.js';

/**
 * What one build of a shop's models computes (docs/recommendations.md "Models"), as of
 * `now`, from the orders and events at `now` or before: the `recommendations.rebuild` job
 * builds with the current time and stores the result; the offline evaluation
 * (evaluation.service.ts) builds with a past cut-off and measures it on what came after.
 */

/** Neighbours kept per item and kind. */
export const NEIGHBOURS_PER_ITEM = 30;
/** Items kept in a shop-wide list; a block asks for at most 100 and some will be unavailable. */
export const SHOP_LIST_LENGTH = 100;
/** popular's candidates, as a multiple of the list's length (sales-tally.ts topSold). */
const POPULAR_CANDIDATES = 10;
export const POPULAR_HALF_LIFE_DAYS = 14;
export const TREND_WINDOW_MS = 7 * DAY_MS;
export const TREND_PAST_WINDOWS = 4;
/** Views older than this are not read: also_viewed follows what people look at now. */
export const VIEW_HISTORY_MS = 90 * DAY_MS;
/** Searches read for the search recommender: as far back as views. */
export const SEARCH_HISTORY_MS = VIEW_HISTORY_MS;
/** A purchase this soon after a search on the same device counts as that search's outcome. */
export const SEARCH_PURCHASE_WINDOW_MS = 7 * DAY_MS;
/** The predictor learns who bought in this long after a cut-off this long before the build. */
export const PURCHASE_HORIZON_MS = 30 * DAY_MS;

export interface BuiltModels {
  readonly neighbours: ReadonlyMap<repo.NeighbourKind, Map<string, Neighbour[]>>;
  readonly lists: ReadonlyArray<{ readonly kind: repo.ListKind; readonly items: readonly ScoredItem[] }>;
  readonly predictor: Predictor;
  readonly ordersRead: number;
  readonly sessionsRead: number;
}

export interface BuildOptions {
  readonly now: number;
  /** Rows read per statement. */
  readonly chunkRows: number;
  /** Called after every chunk with the rows it read: the job renews its claim (and stops when it lost it) and records its progress. */
  readonly afterChunk?: (rowsRead: number) => Promise<void>;
}

/** Reads the orders, views and carts in keyset chunks; only the accumulators outlive a chunk. */
export async function buildModels(db: repo.Executor, shopId: string, options: BuildOptions): Promise<BuiltModels> {
  const { now, chunkRows } = options;
  const afterChunk = options.afterChunk ?? (async () => {});
  const cut = now - PURCHASE_HORIZON_MS;
  const purchases = new PurchaseTally(cut, PURCHASE_HORIZON_MS);
  const bought = new CoOccurrence();
  const tally = new SalesTally({
    now,
    halfLifeDays: POPULAR_HALF_LIFE_DAYS,
    trendWindowMs: TREND_WINDOW_MS,
    trendPastWindows: TREND_PAST_WINDOWS,
  });
  const searched = await readSearches(db, shopId, now, chunkRows, afterChunk);
  let ordersRead = 0;
  let afterId = 0;
  for (;;) {
    const orders = await repo.listOrdersAfter(db, shopId, afterId, now, chunkRows);
    for (const order of orders) {
      const items = JSON.parse(order.items) as TrackedItem[];
      bought.add(items.map((item) => item.id));
      if (order.did !== null)
        searched.addOrder(
          order.did,
          order.createdAt,
          items.map((item) => item.id),
        );
      for (const item of items) tally.add({ item: item.id, at: order.createdAt, quantity: item.amount });
      purchases.addOrder(order.profileId, order.createdAt, order.revenue);
      afterId = order.id;
    }
    ordersRead += orders.length;
    await afterChunk(orders.length);
    if (orders.length < chunkRows) break;
  }

  // One session is one basket: its views arrive in time order and are counted once the
  // next session starts, so that a chunk boundary never splits a basket.
  const viewed = new CoOccurrence();
  let sessionsRead = 0;
  let session: { sid: string; views: Map<string, true> } | undefined;
  const endSession = () => {
    if (session && session.views.size > 0) {
      viewed.add([...session.views.keys()]);
      sessionsRead++;
    }
  };
  let after: repo.ViewCursor | null = null;
  for (;;) {
    const views = await repo.listViewsAfter(db, shopId, after, now - VIEW_HISTORY_MS, now, chunkRows);
    for (const view of views) {
      if (session?.sid !== view.sid) {
        endSession();
        session = { sid: view.sid, views: new Map() };
      }
      for (const item of JSON.parse(view.items) as TrackedItem[]) {
        // The last views count (co-occurrence.ts keeps the last of a basket): a view seen again moves to the end.
        session.views.delete(item.id);
        session.views.set(item.id, true);
        if (session.views.size > DEFAULT_MAX_BASKET_ITEMS) session.views.delete(session.views.keys().next().value as string);
      }
      purchases.addActivity(view.profileId, view.time);
      after = view;
    }
    await afterChunk(views.length);
    if (views.length < chunkRows) break;
  }
  endSession();

  // Carts count as activity for the predictor only: the window before its cut-off.
  let cartAfter: { time: number; id: number } | null = null;
  for (;;) {
    const carts = await repo.listCartsAfter(db, shopId, cartAfter, cut - ACTIVITY_WINDOW_MS, cut, chunkRows);
    for (const cart of carts) {
      purchases.addActivity(cart.profileId, cart.time);
      cartAfter = cart;
    }
    await afterChunk(carts.length);
    if (carts.length < chunkRows) break;
  }

  const candidates = tally.topSold(SHOP_LIST_LENGTH * POPULAR_CANDIDATES);
  const categories = await repo.findFirstCategories(
    db,
    shopId,
    candidates.map((c) => c.id),
  );
  return {
    neighbours: new Map<repo.NeighbourKind, Map<string, Neighbour[]>>([
      ['also_bought', bought.neighbours(NEIGHBOURS_PER_ITEM)],
      ['also_viewed', viewed.neighbours(NEIGHBOURS_PER_ITEM)],
      ['search', searchNeighbours(searched.lists(NEIGHBOURS_PER_ITEM))],
    ]),
    lists: [
      { kind: 'popular', items: diversify(candidates, { limit: SHOP_LIST_LENGTH, categoryOf: (id) => categories.get(id) }) },
      { kind: 'trending', items: tally.trending(SHOP_LIST_LENGTH) },
      { kind: 'buying_now', items: tally.buyingNow(SHOP_LIST_LENGTH) },
    ],
    predictor: trainPredictor(purchases.rows()),
    ordersRead,
    sessionsRead,
  };
}

/** The searches of the window, by device and time, into the search recommender's accumulator. */
async function readSearches(
  db: repo.Executor,
  shopId: string,
  now: number,
  chunkRows: number,
  afterChunk: (rowsRead: number) => Promise<void>,
): Promise<SearchPurchases> {
  const searched = new SearchPurchases({ windowMs: SEARCH_PURCHASE_WINDOW_MS });
  for (let after: repo.SearchRow | null = null; ; ) {
    const searches = await repo.listSearchesAfter(db, shopId, after, now - SEARCH_HISTORY_MS, now, chunkRows);
    for (const search of searches) {
      searched.addSearch(search.did, search.time, search.query);
      after = search;
    }
    await afterChunk(searches.length);
    if (searches.length < chunkRows) break;
  }
  return searched;
}

/** A query's list as stored: the customers who bought an item after searching it are its score and its count. */
function searchNeighbours(lists: Map<string, ScoredItem[]>): Map<string, Neighbour[]> {
  return new Map([...lists].map(([query, items]) => [query, items.map((item) => ({ ...item, coCount: item.score }))]));
}

/**
 * Every customer's predictor row as of `at`, labelled by purchases in (`at`, `at` +
 * horizonMs]: the offline evaluation's test set, read as buildModels reads its training
 * set (orders, then views and carts of the activity window).
 */
export async function tallyPurchases(
  db: repo.Executor,
  shopId: string,
  options: { readonly at: number; readonly horizonMs: number; readonly chunkRows: number },
): Promise<PurchaseTally> {
  const { at, horizonMs, chunkRows } = options;
  const purchases = new PurchaseTally(at, horizonMs);
  for (let afterId = 0; ; ) {
    const orders = await repo.listOrdersAfter(db, shopId, afterId, at + horizonMs, chunkRows);
    for (const order of orders) {
      purchases.addOrder(order.profileId, order.createdAt, order.revenue);
      afterId = order.id;
    }
    if (orders.length < chunkRows) break;
  }
  for (let after: repo.ViewCursor | null = null; ; ) {
    const views = await repo.listViewsAfter(db, shopId, after, at - ACTIVITY_WINDOW_MS, at, chunkRows);
    for (const view of views) {
      purchases.addActivity(view.profileId, view.time);
      after = view;
    }
    if (views.length < chunkRows) break;
  }
  for (let after: { time: number; id: number } | null = null; ; ) {
    const carts = await repo.listCartsAfter(db, shopId, after, at - ACTIVITY_WINDOW_MS, at, chunkRows);
    for (const cart of carts) {
      purchases.addActivity(cart.profileId, cart.time);
      after = cart;
    }
    if (carts.length < chunkRows) break;
  }
  return purchases;
}
