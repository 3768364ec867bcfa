import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ShopsService } from '../shops/index.js';
import { DAY_MS, type ScoredItem } from './domain/popularity.js';
import { encodeModel } from './domain/predictor.js';
import { buildModels, type BuiltModels } from './model-build.js';
import * as repo from './models.repo.js';
import * as predictorRepo from './predictor.repo.js';

export type { ListKind, NeighbourKind } from './models.repo.js';

export interface ModelsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  /** Rows read per statement of the build (tests make it small to stop a build midway). */
  readonly chunkRows?: number;
}

export {
  NEIGHBOURS_PER_ITEM,
  POPULAR_HALF_LIFE_DAYS,
  SHOP_LIST_LENGTH,
  TREND_PAST_WINDOWS,
  TREND_WINDOW_MS,
  VIEW_HISTORY_MS,
} from './model-build.js';
/**
 * A build renews its claim after every chunk; one whose lease ran out (its process died)
 * counts as dead, and the next rebuild takes the claim over.
 */
export const BUILD_LEASE_MS = 10 * 60 * 1000;
/** The daily rebuild runs at this hour (UTC) of each day. */
const DAILY_HOUR_UTC = 3;
const DEFAULT_CHUNK_ROWS = 1000;

export type RebuildOutcome =
  | { readonly status: 'built'; readonly counts: repo.BuildCounts }
  /** Another build holds the shop's claim: this one did not start. */
  | { readonly status: 'busy' };

export interface ModelsStatus {
  readonly builtAt: number | null;
  readonly building: boolean;
  readonly buildingSince: number | null;
  /** The running build's rows read so far (orders, views, carts, searches); null when none runs. */
  readonly rowsRead: number | null;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
  readonly ordersRead: number;
  readonly sessionsRead: number;
  readonly itemsWithNeighbours: number;
  readonly durationMs: number | null;
}

/**
 * The recommenders' models (docs/recommendations.md "Models"): built per shop by the
 * `recommendations.rebuild` job from tracking's orders and session views, stored as
 * top-N lists, so that a request reads one row and never the events.
 */
export class ModelsService {
  private readonly chunkRows: number;

  constructor(private readonly deps: ModelsDeps) {
    this.chunkRows = Math.max(1, deps.chunkRows ?? DEFAULT_CHUNK_ROWS);
  }

  private get db() {
    return this.deps.db.db;
  }

  /** POST …/recommendations/rebuild: queues a build now, and the shop's daily one if missing. */
  async requestRebuild(shopId: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    await this.deps.jobs.enqueue('recommendations.rebuild', { shopId, at: null });
    await this.scheduleDaily(shopId);
  }

  /**
   * Makes sure every shop's daily build is queued (process start; safe from every process
   * at once: a link's key is its shop and instant, so they queue one).
   */
  async scheduleRebuilds(): Promise<void> {
    const at = nextDailyAt(this.deps.clock.now());
    const shops = (await this.deps.shops.listShops()).map((shop) => shop.shopId);
    await this.deps.jobs.enqueueMany(
      'recommendations.rebuild',
      shops.map((shopId) => ({ payload: { shopId, at }, runAt: at, idempotencyKey: dailyKey(shopId, at) })),
    );
  }

  /**
   * The `recommendations.rebuild` job. A daily link queues the next day's before it builds,
   * so that a failing build does not end the chain. A build that finds another running
   * leaves it be: that one will store the lists.
   */
  async runJob(payload: JobMap['recommendations.rebuild'], run: { readonly signal?: AbortSignal } = {}): Promise<void> {
    if (!(await this.deps.shops.getShop(payload.shopId))) return;
    if (payload.at !== null) await this.scheduleDaily(payload.shopId);
    await this.rebuild(payload.shopId, run);
  }

  /**
   * Builds the shop's models and replaces the stored ones in one transaction, so that a
   * build that dies leaves the previous lists serving. One build per shop at a time: the
   * claim is one conditional UPDATE of the shop's state row.
   */
  async rebuild(shopId: string, run: { readonly signal?: AbortSignal } = {}): Promise<RebuildOutcome> {
    await this.deps.shops.requireShop(shopId);
    const started = this.deps.clock.now();
    const token = randomUUID();
    await repo.ensureBuildRow(this.db, shopId);
    if (!(await repo.claimBuild(this.db, shopId, token, started, started + BUILD_LEASE_MS))) return { status: 'busy' };
    await this.deps.db.durable();
    try {
      let rowsRead = 0;
      const keepClaim = async (chunkRows: number) => {
        rowsRead += chunkRows;
        // A chunk's reads are synchronous on SQLite, so its awaits never reach the event
        // loop: without this turn the job thread's lease heartbeats stop for the whole build,
        // and a build longer than the job's lease is taken for dead and run a second time.
        await new Promise<void>((resolve) => setImmediate(resolve));
        run.signal?.throwIfAborted();
        const leaseUntil = this.deps.clock.now() + BUILD_LEASE_MS;
        if (!(await repo.renewBuild(this.db, shopId, token, leaseUntil, rowsRead))) throw new BuildTakenOver(shopId);
      };
      const models = await buildModels(this.db, shopId, { now: started, chunkRows: this.chunkRows, afterChunk: keepClaim });
      const counts = await this.store(shopId, token, models, started);
      await this.deps.db.durable();
      return { status: 'built', counts };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await repo.failBuild(this.db, shopId, token, message.slice(0, 2000), this.deps.clock.now());
      await this.deps.db.durable();
      throw error;
    }
  }

  /** An item's stored neighbours of a kind, best first; [] when the last build gave it none. */
  async neighbours(shopId: string, kind: repo.NeighbourKind, itemId: string): Promise<ScoredItem[]> {
    return parseList(await repo.findNeighbours(this.db, shopId, kind, itemId));
  }

  /** A stored shop-wide list, best first; [] before the first build. */
  async shopList(shopId: string, kind: repo.ListKind): Promise<ScoredItem[]> {
    return parseList(await repo.findList(this.db, shopId, kind));
  }

  /** GET …/recommendations/status. */
  async status(shopId: string): Promise<ModelsStatus> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findBuild(this.db, shopId);
    const now = this.deps.clock.now();
    const num = (value: number | null | undefined) => (value === null || value === undefined ? null : Number(value));
    // A claim past its lease belongs to a build that died: nothing is building.
    const building = row !== undefined && row.build_token !== null && Number(row.lease_until) >= now;
    return {
      builtAt: num(row?.built_at),
      building,
      buildingSince: building ? num(row?.building_since) : null,
      rowsRead: building ? Number(row?.rows_read ?? 0) : null,
      lastError: row?.last_error ?? null,
      lastErrorAt: num(row?.last_error_at),
      ordersRead: Number(row?.orders_read ?? 0),
      sessionsRead: Number(row?.sessions_read ?? 0),
      itemsWithNeighbours: Number(row?.items_with_neighbours ?? 0),
      durationMs: num(row?.duration_ms),
    };
  }

  private async scheduleDaily(shopId: string): Promise<void> {
    const at = nextDailyAt(this.deps.clock.now());
    await this.deps.jobs.enqueue('recommendations.rebuild', { shopId, at }, { runAt: at, idempotencyKey: dailyKey(shopId, at) });
  }

  /** Replaces the shop's lists and records the build, in one transaction, while the claim is still this build's. */
  private async store(shopId: string, token: string, models: BuiltModels, started: number): Promise<repo.BuildCounts> {
    const items = new Set<string>();
    const rows: Array<{ kind: repo.NeighbourKind; itemId: string; items: string }> = [];
    for (const [kind, lists] of models.neighbours) {
      for (const [itemId, neighbours] of lists) {
        // A search list is keyed by a query, not a product.
        if (kind !== 'search') items.add(itemId);
        rows.push({ kind, itemId, items: encodeList(neighbours) });
      }
    }
    const finishedAt = this.deps.clock.now();
    const counts: repo.BuildCounts = {
      ordersRead: models.ordersRead,
      sessionsRead: models.sessionsRead,
      itemsWithNeighbours: items.size,
      durationMs: finishedAt - started,
    };
    await this.db.transaction().execute(async (trx) => {
      // The state row first: it locks the claim, so that no takeover can land between the check and the commit.
      if (!(await repo.renewBuild(trx, shopId, token, finishedAt + BUILD_LEASE_MS))) throw new BuildTakenOver(shopId);
      await repo.replaceNeighbours(trx, shopId, rows);
      await repo.replaceLists(
        trx,
        shopId,
        models.lists.map((l) => ({ kind: l.kind, items: encodeList(l.items) })),
      );
      const { predictor } = models;
      await predictorRepo.replacePredictor(trx, {
        shop_id: shopId,
        model: predictor.model === null ? null : encodeModel(predictor.model),
        base_rate: predictor.baseRate,
        training_size: predictor.trainingSize,
        positives: predictor.positives,
        auc: predictor.auc,
        built_at: finishedAt,
      });
      if (!(await repo.finishBuild(trx, shopId, token, finishedAt, counts))) throw new BuildTakenOver(shopId);
    });
    return counts;
  }
}

class BuildTakenOver extends Error {
  constructor(shopId: string) {
    super(`The recommendation build of shop ${shopId} ran past its lease and was taken over by another build`);
  }
}

/** [id, score] pairs, scores to 6 decimals: the order is fixed already, and the rows stay small. */
function encodeList(items: readonly ScoredItem[]): string {
  return JSON.stringify(items.map((item) => [item.id, Math.round(item.score * 1e6) / 1e6]));
}

function parseList(text: string | undefined): ScoredItem[] {
  if (text === undefined) return [];
  return (JSON.parse(text) as Array<[string, number]>).map(([id, score]) => ({ id, score }));
}

/** The next DAILY_HOUR_UTC after `now`. */
export function nextDailyAt(now: number): number {
  const today = Math.floor(now / DAY_MS) * DAY_MS + DAILY_HOUR_UTC * 60 * 60 * 1000;
  return today > now ? today : today + DAY_MS;
}

function dailyKey(shopId: string, at: number): string {
  return `${shopId}:${at}`;
}
