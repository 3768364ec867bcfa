import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Late } from '../../late.js';
import type { ShopsService } from '../shops/index.js';
import { fetchAndImport, scheduleFetch, type FetchRun } from './catalog.fetch.js';
import {
  asAppError,
  assertReadableBody,
  ImportFailure,
  beginImport,
  deleteOlder,
  failImport,
  landImport,
  stageFeed,
  stageTree,
  type ImportContext,
} from './catalog.import.js';
import * as repo from './catalog.repo.js';
import { ImportHeartbeat } from './import-heartbeat.js';
import { FeedStager } from './catalog.staging.js';
import type {
  CatalogLandedListener,
  CatalogServedListener,
  FeedImportInput,
  FeedImportRecord,
  FeedImportResult,
  FeedSettingsPatch,
  FeedStatus,
  SkippedOffer,
} from './catalog.types.js';

export interface CatalogDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly jobs: JobQueue;
  readonly config: Config;
  /**
   * The modules that follow landings (images, product subscriptions), run in this order
   * inside the landing transaction; built after the catalog, so bound late (src/services.ts).
   * None when absent.
   */
  readonly landedListeners?: Late<readonly CatalogLandedListener[]>;
  /** Told once a landing has committed: the served products' caches (products.service.ts). None when absent. */
  readonly servedListeners?: Late<readonly CatalogServedListener[]>;
}

/** Hourly by default (issue 4: "re-fetched on a schedule … hourly by default"). */
export const DEFAULT_REFRESH_MINUTES = 60;
export const REFRESH_MINUTES_RANGE = { min: 5, max: 7 * 24 * 60 } as const;
export const MAX_IMPORTS_LISTED = 100;
const MAX_FEED_URL = 2_048;

/**
 * The product feed: imports by generation (staged invisibly, landed by one UPDATE in one
 * transaction, older generations deleted after), the feed URL and its schedule, and the
 * import log. Other modules follow landings as its `landedListeners`.
 */
export class CatalogService {
  constructor(private readonly deps: CatalogDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  private get context(): ImportContext {
    return {
      db: this.db,
      clock: this.deps.clock,
      listeners: this.deps.landedListeners?.get() ?? [],
      defaultRefreshMinutes: DEFAULT_REFRESH_MINUTES,
      leaseMs: this.deps.config.importLeaseMs,
    };
  }

  /** The largest feed accepted, in bytes (config PATRON_FEED_MAX_BYTES). */
  get maxFeedBytes(): number {
    return this.deps.config.feedMaxBytes;
  }

  /** The generation readers see; 0 when the shop has no catalog. */
  async currentGeneration(shopId: string): Promise<number> {
    const row = await repo.findCatalog(this.db, shopId);
    return row ? Number(row.generation) : 0;
  }

  /**
   * Imports a whole feed document and resolves once the new catalog is served. A
   * malformed document fails with VALIDATION_FAILED (422), a body past `maxBytes` with
   * PAYLOAD_TOO_LARGE, a second import while one runs with CONFLICT; in every failure
   * the served catalog stays as it was and the staged rows are deleted.
   */
  async importFeed(input: FeedImportInput & { readonly maxBytes?: number }): Promise<FeedImportResult> {
    await this.deps.shops.requireShop(input.shopId);
    assertReadableBody(input.body);
    const ctx = this.context;
    const generation = await beginImport(ctx, input.shopId, input.source);
    const heartbeat = new ImportHeartbeat(this.db, this.deps.clock, input.shopId, ctx.leaseMs);
    heartbeat.start();
    const stager = new FeedStager(this.db, input.shopId, generation, this.deps.db.dialect, (trx) =>
      repo.touchCatalog(trx, input.shopId, this.deps.clock.now()),
    );
    let result: FeedImportResult;
    try {
      await stageFeed(ctx, input, stager, input.maxBytes ?? this.deps.config.feedMaxBytes);
      const tree = await stageTree(ctx, input.shopId, generation, stager);
      result = {
        generation,
        products: stager.products,
        categories: tree.categories,
        locations: tree.locations,
        skippedCount: stager.skippedCount,
        skipped: stager.skipped,
      };
      await repo.refreshServedReadStatistics(this.db, this.deps.db.dialect);
      await landImport(ctx, input.shopId, generation, result);
      for (const listener of this.deps.servedListeners?.get() ?? []) listener(input.shopId, generation);
      // Answer only once the landing is on disk (SQLite commits are flushed apart).
      await this.deps.db.durable();
    } catch (error) {
      // A batch still being written would stage rows after failImport deleted them.
      await stager.settle().catch(() => undefined);
      await failImport(ctx, input.shopId, generation, stager, error);
      throw asAppError(error);
    } finally {
      await heartbeat.stop();
      input.onHeartbeatGap?.(heartbeat.longestGapMs);
    }
    await deleteOlder(ctx, input.shopId, generation);
    return result;
  }

  /** Records an import that could not even start reading (its feed URL did not answer). */
  async recordFailedImport(shopId: string, source: FeedImportInput['source'], error: string): Promise<void> {
    const ctx = this.context;
    const generation = await beginImport(ctx, shopId, source);
    const nothingStaged = new FeedStager(this.db, shopId, generation, this.deps.db.dialect, () => Promise.resolve());
    await failImport(ctx, shopId, generation, nothingStaged, new ImportFailure(error));
  }

  async getFeed(shopId: string): Promise<FeedStatus> {
    await this.deps.shops.requireShop(shopId);
    const catalog = await repo.findCatalog(this.db, shopId);
    const imports = await repo.listImports(this.db, shopId, 1);
    return {
      feedUrl: catalog?.feed_url ?? null,
      refreshMinutes: catalog?.refresh_minutes ?? DEFAULT_REFRESH_MINUTES,
      generation: Number(catalog?.generation ?? 0),
      landedAt: catalog?.landed_at == null ? null : Number(catalog.landed_at),
      nextFetchAt: catalog?.next_fetch_at == null ? null : Number(catalog.next_fetch_at),
      lastImport: imports[0] ? toImportRecord(imports[0]) : null,
    };
  }

  /**
   * Sets the feed URL and its refresh interval. A new or changed URL is fetched at once
   * and then every refresh_minutes (a chain of catalog.fetch jobs); null stops the chain.
   */
  async updateFeed(shopId: string, patch: FeedSettingsPatch): Promise<FeedStatus> {
    await this.deps.shops.requireShop(shopId);
    if (patch.refreshMinutes !== undefined) checkRefreshMinutes(patch.refreshMinutes);
    if (patch.feedUrl !== undefined && patch.feedUrl !== null) checkFeedUrl(patch.feedUrl);
    const now = this.deps.clock.now();
    await repo.ensureCatalogRow(this.db, shopId, DEFAULT_REFRESH_MINUTES, now);
    await this.db.transaction().execute(async (trx) => {
      const current = await repo.findCatalog(trx, shopId);
      const urlChanged = patch.feedUrl !== undefined && patch.feedUrl !== current?.feed_url;
      let nextFetchAt: { next_fetch_at?: number | null } = {};
      if (urlChanged) {
        nextFetchAt = { next_fetch_at: patch.feedUrl === null ? null : await scheduleFetch(this.deps.jobs, trx, shopId, now) };
      }
      await repo.updateFeedSettings(
        trx,
        shopId,
        {
          ...(patch.feedUrl !== undefined ? { feed_url: patch.feedUrl } : {}),
          ...(patch.refreshMinutes !== undefined ? { refresh_minutes: patch.refreshMinutes } : {}),
          ...nextFetchAt,
        },
        now,
      );
    });
    return this.getFeed(shopId);
  }

  /** The import log, newest first; with `before` (a generation), the page older than it. */
  async listImports(shopId: string, limit: number = MAX_IMPORTS_LISTED, before?: number): Promise<FeedImportRecord[]> {
    await this.deps.shops.requireShop(shopId);
    const capped = Math.min(MAX_IMPORTS_LISTED, Math.max(1, Math.trunc(limit) || 1));
    return (await repo.listImports(this.db, shopId, capped, before)).map(toImportRecord);
  }

  /** The `catalog.fetch` job: one link of a shop's chain of scheduled fetches. */
  async runScheduledFetch(payload: JobMap['catalog.fetch'], run: FetchRun = {}): Promise<void> {
    await fetchAndImport(
      {
        db: this.db,
        clock: this.deps.clock,
        jobs: this.deps.jobs,
        config: this.deps.config,
        importFeed: (input) => this.importFeed(input),
        recordFailure: (shopId, error) => this.recordFailedImport(shopId, 'url', error),
      },
      payload,
      run,
    );
  }
}

function checkRefreshMinutes(value: number): void {
  if (!Number.isInteger(value) || value < REFRESH_MINUTES_RANGE.min || value > REFRESH_MINUTES_RANGE.max) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Parameter \`refresh_minutes\` must be an integer from ${REFRESH_MINUTES_RANGE.min} to ${REFRESH_MINUTES_RANGE.max}.`,
      { field: 'refresh_minutes' },
    );
  }
}

function checkFeedUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (value.length > MAX_FEED_URL || url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new AppError('VALIDATION_FAILED', 'Parameter `feed_url` must be an http:// or https:// link of at most 2048 characters.', {
      field: 'feed_url',
    });
  }
}

function toImportRecord(row: repo.FeedImportRow): FeedImportRecord {
  return {
    generation: Number(row.generation),
    source: row.source,
    status: row.status,
    products: row.products,
    categories: row.categories,
    locations: row.locations,
    skippedCount: row.skipped_count,
    skipped: JSON.parse(row.skipped) as SkippedOffer[],
    error: row.error,
    startedAt: Number(row.started_at),
    finishedAt: row.finished_at == null ? null : Number(row.finished_at),
  };
}
