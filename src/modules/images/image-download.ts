import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { safeFetchBuffer, type SafeFetchFailure } from '../../net/safe-fetch.js';
import { hashLink, MAX_PICTURE_LINK_LENGTH } from './domain/links.js';
import type { ImageStore } from './image-store.js';
import * as repo from './images.repo.js';
import type { ImageRunSummary } from './images.types.js';
import { makeThumbnails } from './thumbnails.js';

/**
 * The download job of one shop after an import landed (job `images.download`).
 *
 * Phases, each resumable, so a job that dies or is retried never redoes finished work:
 * (1) the first picture of every product of the landed generation is registered as
 * pending unless known, and marked seen (a done picture is never fetched again; a
 * failed one only once its retry time has come); (2) the shop's pending pictures are
 * downloaded in pages, a few at a time, each recorded done or failed as soon as it is;
 * (3) pictures unseen for a week are deleted.
 *
 * Only the first picture of a product is fetched: it is the one the contract shows
 * (Product `picture`, `image_url`, `image_url_resized`).
 */

export interface DownloadLimits {
  /** Largest picture file, in bytes. */
  readonly maxBytes: number;
  /** The whole download of one picture. */
  readonly timeoutMs: number;
  /** Largest width × height accepted (decoding cost and memory grow with it). */
  readonly maxPixels: number;
  /** Pictures downloaded at once by one job. */
  readonly concurrency: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 15_000,
  maxPixels: 36_000_000,
  concurrency: 4,
};

/** A picture that failed for good reasons (404, not a picture) is tried again a day later… */
const RETRY_PERMANENT_MS = 24 * 3_600_000;
/** …one that failed for passing reasons (timeout, 5xx, connection) an hour later. */
const RETRY_TRANSIENT_MS = 3_600_000;
const PRODUCT_PAGE = 500;
const PRUNE_UNSEEN_AFTER_MS = 7 * 24 * 3_600_000;
const PRUNE_PAGE = 500;

export interface DownloadDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly store: ImageStore;
  readonly allowPrivate: boolean | readonly string[];
  readonly limits: DownloadLimits;
}

export async function downloadShopPictures(
  deps: DownloadDeps,
  job: { shopId: string; generation: number },
  signal: AbortSignal,
): Promise<ImageRunSummary> {
  const db = deps.db.db;
  const superseded = async () => (await repo.currentGeneration(db, job.shopId)) !== job.generation;
  // A newer landing enqueued its own job, which registers the newer products.
  if (await superseded()) return { superseded: true, done: 0, failed: 0 };

  let afterId: string | undefined;
  for (;;) {
    signal.throwIfAborted();
    const products = await repo.listProductPictures(db, job.shopId, job.generation, afterId, PRODUCT_PAGE);
    if (products.length === 0) break;
    const pictures = new Map<string, string>();
    for (const product of products) {
      const link = firstPicture(product.pictures);
      if (link !== undefined) pictures.set(hashLink(link), link);
    }
    const now = deps.clock.now();
    const entries = [...pictures].map(([hash, link]) => ({ hash, link }));
    await repo.registerSeen(db, job.shopId, entries, now);
    await repo.requeueFailed(db, job.shopId, [...pictures.keys()], now);
    afterId = products[products.length - 1]?.id;
  }

  let done = 0;
  let failed = 0;
  let afterHash: string | undefined;
  const pageSize = deps.limits.concurrency * 8;
  for (;;) {
    signal.throwIfAborted();
    if (await superseded()) return { superseded: true, done, failed };
    const page = await repo.listPending(db, job.shopId, afterHash, pageSize);
    if (page.length === 0) break;
    const outcomes = await mapConcurrently(page, deps.limits.concurrency, (picture) => downloadOne(deps, job.shopId, picture, signal));
    done += outcomes.filter((outcome) => outcome === 'done').length;
    failed += outcomes.filter((outcome) => outcome === 'failed').length;
    afterHash = page[page.length - 1]?.hash;
  }
  await pruneUnseen(deps, job.shopId);
  return { superseded: false, done, failed };
}

/**
 * Pictures no landed catalog has shown for a week go, files and rows: feeds that change
 * their links (a cache-busting query string, a new CDN) would otherwise fill the disk.
 * The week of grace spares pictures of products that leave the feed for a while.
 */
async function pruneUnseen(deps: DownloadDeps, shopId: string): Promise<void> {
  const seenBefore = deps.clock.now() - PRUNE_UNSEEN_AFTER_MS;
  for (;;) {
    const hashes = await repo.deleteUnseen(deps.db.db, shopId, seenBefore, PRUNE_PAGE);
    for (const hash of hashes) await deps.store.remove(shopId, hash);
    if (hashes.length < PRUNE_PAGE) return;
  }
}

async function downloadOne(
  deps: DownloadDeps,
  shopId: string,
  picture: { hash: string; link: string },
  signal: AbortSignal,
): Promise<'done' | 'failed'> {
  const fail = async (reason: string, transient: boolean): Promise<'failed'> => {
    const now = deps.clock.now();
    const retryAt = now + (transient ? RETRY_TRANSIENT_MS : RETRY_PERMANENT_MS);
    await repo.markFailed(deps.db.db, shopId, picture.hash, reason, retryAt, now);
    return 'failed';
  };
  if (picture.link.length > MAX_PICTURE_LINK_LENGTH) {
    return fail(`The picture link is longer than ${MAX_PICTURE_LINK_LENGTH} characters.`, false);
  }
  const fetched = await safeFetchBuffer(picture.link, {
    maxBytes: deps.limits.maxBytes,
    timeoutMs: deps.limits.timeoutMs,
    contentTypes: ['image/'],
    allowPrivate: deps.allowPrivate,
    signal,
  });
  if (!fetched.ok) {
    // The job is stopping: the picture stays pending for the retry.
    if (fetched.code === 'aborted') signal.throwIfAborted();
    return fail(fetched.reason, isTransient(fetched));
  }
  const thumbnails = await makeThumbnails(fetched.body, { maxPixels: deps.limits.maxPixels });
  if (!thumbnails.ok) return fail(thumbnails.reason, false);
  await deps.store.write(shopId, picture.hash, thumbnails.images);
  await repo.markDone(deps.db.db, shopId, picture.hash, deps.clock.now());
  return 'done';
}

function isTransient(failure: SafeFetchFailure): boolean {
  if (failure.code === 'http_status') return failure.status === 429 || (failure.status ?? 0) >= 500;
  return failure.code === 'timeout' || failure.code === 'unreachable' || failure.code === 'unresolvable';
}

/** The first picture link of a product's `pictures` column, if it has a usable one. */
function firstPicture(json: string): string | undefined {
  try {
    const pictures: unknown = JSON.parse(json);
    const first: unknown = Array.isArray(pictures) ? pictures[0] : undefined;
    return typeof first === 'string' && first.trim() !== '' ? first : undefined;
  } catch {
    return undefined;
  }
}

async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let stopped = false;
  const lane = async (): Promise<void> => {
    while (!stopped && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        // The other lanes finish the item in hand and take no more.
        stopped = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
