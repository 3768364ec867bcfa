import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { TtlCache } from '../../ttl-cache.js';
import type { ScoredItem } from './domain/popularity.js';
import * as repo from './models.repo.js';

/**
 * The stored models as GET /recommend reads them: an item's neighbour list and the shop's
 * lists, each one primary-key row, kept in memory for MODEL_READ_TTL_MS. The lists change
 * only when a build lands (daily, or when asked), so a build is served everywhere within
 * that time; nothing a person edits is cached here (blocks are read on every request).
 */

export const MODEL_READ_TTL_MS = 60_000;
/** Lists kept over all shops; a list is at most 100 pairs (NEIGHBOURS_PER_ITEM, SHOP_LIST_LENGTH). */
const MAX_KEPT_LISTS = 100_000;

export class ModelReads {
  private readonly kept: TtlCache<string, ScoredItem[]>;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock }) {
    this.kept = new TtlCache({ max: MAX_KEPT_LISTS, ttlMs: MODEL_READ_TTL_MS, clock: deps.clock });
  }

  shopList(shopId: string, kind: repo.ListKind): Promise<ScoredItem[]> {
    return this.kept.getOrLoad(`${shopId}\nlist\n${kind}`, async () => parseList(await repo.findList(this.deps.db.db, shopId, kind)));
  }

  /** Neighbour lists of several items in one read of those not kept; an item without one maps to []. */
  async neighboursOf(shopId: string, kind: repo.NeighbourKind, itemIds: readonly string[]): Promise<Map<string, ScoredItem[]>> {
    const lists = new Map<string, ScoredItem[]>();
    const missing: string[] = [];
    for (const id of new Set(itemIds)) {
      const list = this.kept.get(keyOf(shopId, kind, id));
      if (list === undefined) missing.push(id);
      else lists.set(id, list);
    }
    if (missing.length === 0) return lists;
    const read = await repo.findNeighboursMany(this.deps.db.db, shopId, kind, missing);
    for (const id of missing) {
      const list = parseList(read.get(id));
      this.kept.set(keyOf(shopId, kind, id), list);
      lists.set(id, list);
    }
    return lists;
  }
}

function keyOf(shopId: string, kind: string, itemId: string): string {
  return `${shopId}\n${kind}\n${itemId}`;
}

export function parseList(text: string | undefined): ScoredItem[] {
  if (text === undefined) return [];
  return (JSON.parse(text) as Array<[string, number]>).map(([id, score]) => ({ id, score }));
}
