import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackedItem } from '../tracking/index.js';
import {
  EVALUATION_DEPTH,
  itemCases,
  protocolRows,
  scoreCustomerRecommender,
  scoreItemRecommender,
  type CustomerCase,
  type EvaluationRow,
} from './domain/evaluation.js';
import { auc } from './domain/metrics.js';
import type { HistoryEvent, HistoryKind } from './domain/personal.js';
import { HISTORY_EVENTS, HISTORY_MS } from './recommend.service.js';
import { interestingFor, recentlyViewed as viewedNewestFirst } from './domain/request-lists.js';
import { DAY_MS } from './domain/popularity.js';
import { probability } from './domain/predictor.js';
import { similarProducts, type ProductFacts } from './domain/similar.js';
import * as evalRepo from './evaluation.repo.js';
import { buildModels, PURCHASE_HORIZON_MS, tallyPurchases, type BuiltModels } from './model-build.js';

export interface EvaluationDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
}

export interface EvaluationOptions {
  /** The test period: the last this many days up to `until`. */
  readonly testDays: number;
  /** The end of the data; now when absent. */
  readonly until?: number;
  /** Cases per protocol, the first by order id or profile id: the evaluation's time is bounded by it. */
  readonly maxCases?: number;
}

export interface EvaluationReport {
  readonly cut: number;
  readonly until: number;
  readonly rows: readonly EvaluationRow[];
  readonly predictor: {
    /** On the customers active before the cut-off, labelled by their purchases in the test period. */
    readonly auc: number | null;
    readonly customers: number;
    readonly positives: number;
    /** Null when the training data was too little: every customer then gets the base rate. */
    readonly trainedAuc: number | null;
    readonly trainingSize: number;
    readonly hasModel: boolean;
  };
}

export const DEFAULT_TEST_DAYS = 14;
export const MAX_TEST_DAYS = 365;
const DEFAULT_MAX_CASES = 5_000;
const CHUNK_ROWS = 1000;
const KIND_OF_EVENT: Readonly<Record<string, HistoryKind>> = { view: 'view', cart: 'cart', purchase: 'purchase' };

/**
 * `patron recommendations evaluate` (docs/recommendations.md "Evaluation"): builds every
 * model with model-build.ts, the rebuild job's own code, from the events before a cut-off,
 * and measures each recommender and the predictor on what the shop's customers did after
 * it. Reads only; stores nothing.
 */
export class EvaluationService {
  constructor(private readonly deps: EvaluationDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async evaluate(shopId: string, options: EvaluationOptions): Promise<EvaluationReport> {
    await this.deps.shops.requireShop(shopId);
    const until = options.until ?? this.deps.clock.now();
    const cut = until - options.testDays * DAY_MS;
    const maxCases = options.maxCases ?? DEFAULT_MAX_CASES;
    const models = await buildModels(this.db, shopId, { now: cut, chunkRows: CHUNK_ROWS });
    const lists = new Map(models.lists.map((list) => [list.kind, list.items.map((item) => item.id)]));
    const neighbours = (kind: 'also_bought' | 'also_viewed', item: string) =>
      (models.neighbours.get(kind)?.get(item) ?? []).map((n) => n.id);
    const shopList = (kind: 'popular' | 'trending' | 'buying_now') => lists.get(kind) ?? [];

    const { baskets, buyers } = await this.testOrders(shopId, cut, until, maxCases);
    const cases = itemCases(baskets);
    const similar = await this.similarIndex(shopId);
    const itemRows = protocolRows('item', [
      ['popular', scoreItemRecommender(cases, () => shopList('popular'))],
      ['trending', scoreItemRecommender(cases, () => shopList('trending'))],
      ['buying_now', scoreItemRecommender(cases, () => shopList('buying_now'))],
      ['also_bought', scoreItemRecommender(cases, (item) => neighbours('also_bought', item))],
      ['also_viewed', scoreItemRecommender(cases, (item) => neighbours('also_viewed', item))],
      ['similar', scoreItemRecommender(cases, similar)],
    ]);

    const customers = await this.customerCases(shopId, buyers, cut, maxCases);
    const popular = shopList('popular');
    const customerRows = protocolRows('customer', [
      ['popular', scoreCustomerRecommender(customers, () => popular)],
      ['trending', scoreCustomerRecommender(customers, () => shopList('trending'))],
      ['buying_now', scoreCustomerRecommender(customers, () => shopList('buying_now'))],
      ['interesting', scoreCustomerRecommender(customers, (c) => personal(models, c, cut, popular))],
      ['recently_viewed', scoreCustomerRecommender(customers, (c) => recentlyViewed(c))],
    ]);

    return { cut, until, rows: [...itemRows, ...customerRows], predictor: await this.predictorOnTest(shopId, models, cut, until) };
  }

  /** The test period's baskets in order-id order, and each buyer's distinct items. */
  private async testOrders(shopId: string, cut: number, until: number, maxCases: number) {
    const baskets: string[][] = [];
    const buyers = new Map<number, Set<string>>();
    for (let afterId = 0; ; ) {
      const orders = await evalRepo.listOrdersBetween(this.db, shopId, afterId, cut, until, CHUNK_ROWS);
      for (const order of orders) {
        const items = (JSON.parse(order.items) as TrackedItem[]).map((item) => item.id);
        if (baskets.length < maxCases) baskets.push(items);
        let bought = buyers.get(order.profileId);
        if (bought === undefined) buyers.set(order.profileId, (bought = new Set()));
        for (const id of items) bought.add(id);
        afterId = order.id;
      }
      if (orders.length < CHUNK_ROWS) break;
    }
    return { baskets, buyers };
  }

  /** The test period's buyers with a history before the cut-off; the history rides along for interesting and recently_viewed. */
  private async customerCases(shopId: string, buyers: ReadonlyMap<number, ReadonlySet<string>>, cut: number, maxCases: number) {
    const cases: Array<CustomerCase & { readonly history: HistoryEvent[] }> = [];
    const ids = [...buyers.keys()].sort((a, b) => a - b);
    for (const profileId of ids) {
      if (cases.length >= maxCases) break;
      const rows = await evalRepo.listHistory(this.db, shopId, profileId, cut - HISTORY_MS, cut, HISTORY_EVENTS);
      if (rows.length === 0) continue;
      const history: HistoryEvent[] = [];
      const bought = new Set<string>();
      for (const row of rows) {
        const kind = KIND_OF_EVENT[row.event];
        if (kind === undefined) continue;
        for (const item of JSON.parse(row.items) as TrackedItem[]) {
          history.push({ item: item.id, kind, at: row.time });
          if (kind === 'purchase') bought.add(item.id);
        }
      }
      const relevant = new Set([...(buyers.get(profileId) ?? [])].filter((id) => !bought.has(id)));
      cases.push({ profileId, bought, relevant, history });
    }
    return cases;
  }

  /** similar over the served catalog, its candidates the products of the item's categories. */
  private async similarIndex(shopId: string): Promise<(item: string) => string[]> {
    const products = new Map<string, ProductFacts>();
    const byCategory = new Map<string, ProductFacts[]>();
    for (let afterId = ''; ; ) {
      const rows = await evalRepo.listServedProducts(this.db, shopId, afterId, CHUNK_ROWS);
      for (const row of rows) {
        const categories = (JSON.parse(row.categoryIds) as unknown[]).map(String);
        const params = Object.fromEntries(
          (JSON.parse(row.params) as Array<{ key: string; values: string[] }>).map((p) => [p.key, p.values]),
        );
        const facts: ProductFacts = { id: row.id, price: row.price, categories, params };
        products.set(row.id, facts);
        for (const category of categories) {
          let list = byCategory.get(category);
          if (list === undefined) byCategory.set(category, (list = []));
          list.push(facts);
        }
        afterId = row.id;
      }
      if (rows.length < CHUNK_ROWS) break;
    }
    return (item) => {
      const current = products.get(item);
      if (current === undefined) return [];
      const candidates = current.categories.flatMap((category) => byCategory.get(category) ?? []);
      return similarProducts(current, candidates, { limit: EVALUATION_DEPTH });
    };
  }

  /** The predictor trained as of the cut-off, scored on the customers active then, labelled by the test period. */
  private async predictorOnTest(shopId: string, models: BuiltModels, cut: number, until: number): Promise<EvaluationReport['predictor']> {
    const tally = await tallyPurchases(this.db, shopId, {
      at: cut,
      horizonMs: Math.min(until - cut, PURCHASE_HORIZON_MS),
      chunkRows: CHUNK_ROWS,
    });
    const scores: number[] = [];
    const labels: boolean[] = [];
    for (const row of tally.rows()) {
      scores.push(probability(models.predictor, row.features));
      labels.push(row.label);
    }
    return {
      auc: models.predictor.model === null ? null : auc(scores, labels),
      customers: scores.length,
      positives: labels.filter(Boolean).length,
      trainedAuc: models.predictor.auc,
      trainingSize: models.predictor.trainingSize,
      hasModel: models.predictor.model !== null,
    };
  }
}

/** interesting as a block answers it (request-lists.ts, the code GET /recommend runs), topped up with popular. */
function personal(
  models: BuiltModels,
  c: CustomerCase & { readonly history: readonly HistoryEvent[] },
  now: number,
  popular: readonly string[],
) {
  const result = interestingFor(c.history, (kind, item) => models.neighbours.get(kind)?.get(item) ?? [], { now, limit: EVALUATION_DEPTH });
  if (result.enough) return result.ids;
  const seen = new Set(result.ids);
  return [...result.ids, ...popular.filter((id) => !seen.has(id))];
}

/** recently_viewed: the history's views, newest first, each once (request-lists.ts). */
function recentlyViewed(c: CustomerCase & { readonly history: readonly HistoryEvent[] }): string[] {
  return viewedNewestFirst(c.history);
}
