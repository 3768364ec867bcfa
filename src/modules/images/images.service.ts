import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import type { JobQueue } from '../../jobs/queue.js';
import { hashLink, resizedLinks, type ThumbnailRef } from './domain/links.js';
import { DEFAULT_DOWNLOAD_LIMITS, downloadShopPictures, type DownloadLimits } from './image-download.js';
import { ImageStore, type StoredThumbnail } from './image-store.js';
import * as repo from './images.repo.js';
import type { ImageRunSummary, ImagesLanding, ProductImageView } from './images.types.js';

export interface ImagesDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Pick<Config, 'dataDir' | 'publicUrl' | 'fetchAllowPrivate'>;
  readonly jobs: JobQueue;
  /** Tests lower these; production uses DEFAULT_DOWNLOAD_LIMITS. */
  readonly limits?: Partial<DownloadLimits>;
}

/** A picture pending or never seen: its thumbnail links point to the original. */
const UNKNOWN_PICTURE: ProductImageView = Object.freeze({ resized: null, error: null });

/** Links looked up per statement: well under every driver's parameter limit. */
const LOOKUP_CHUNK = 500;
/** viewsFor serves pages of products, never a whole catalog. */
export const MAX_VIEWS_PER_CALL = 10_000;

/**
 * Product pictures: after each import lands, a job downloads the pictures not stored yet
 * and makes their square thumbnails (image-download.ts); the product mapper asks
 * viewsFor for `image_url_resized` and `image_downloading_error`; GET /images/… serves
 * the files.
 */
export class ImagesService {
  private readonly store: ImageStore;
  private readonly limits: DownloadLimits;

  constructor(private readonly deps: ImagesDeps) {
    this.store = ImageStore.inDataDir(deps.config.dataDir);
    this.limits = { ...DEFAULT_DOWNLOAD_LIMITS, ...deps.limits };
  }

  /** The catalog's landed listener (src/services.ts lists it): each landing's pictures are downloaded. */
  landedListener(): { readonly name: string; onLanded(trx: Transaction<Database>, landing: ImagesLanding): Promise<void> } {
    return { name: 'images', onLanded: (trx, landing) => this.enqueueDownload(trx, landing) };
  }

  /**
   * Enqueued in the landing transaction, so the job exists exactly when the new catalog
   * does; the key makes a replayed landing enqueue nothing new.
   */
  private async enqueueDownload(trx: Transaction<Database>, landing: ImagesLanding): Promise<void> {
    await this.deps.jobs.enqueue(
      'images.download',
      { shopId: landing.shopId, generation: landing.generation },
      { executor: trx, idempotencyKey: `${landing.shopId}:${landing.generation}` },
    );
  }

  /** The `images.download` job. */
  downloadForShop(job: { shopId: string; generation: number }, signal: AbortSignal): Promise<ImageRunSummary> {
    return downloadShopPictures(
      {
        db: this.deps.db,
        clock: this.deps.clock,
        store: this.store,
        allowPrivate: this.deps.config.fetchAllowPrivate,
        limits: this.limits,
      },
      job,
      signal,
    );
  }

  /**
   * What is known of each picture link (every link given gets an entry): thumbnails
   * once done, the reason once failed, neither while pending or unknown.
   */
  async viewsFor(shopId: string, links: readonly string[]): Promise<Map<string, ProductImageView>> {
    const unique = [...new Set(links)];
    if (unique.length > MAX_VIEWS_PER_CALL) {
      throw new Error(`viewsFor takes at most ${MAX_VIEWS_PER_CALL} links, got ${unique.length}`);
    }
    const byHash = new Map(unique.map((link) => [hashLink(link), link]));
    const hashes = [...byHash.keys()];
    const rows: repo.PictureRow[] = [];
    for (let i = 0; i < hashes.length; i += LOOKUP_CHUNK) {
      rows.push(...(await repo.findByHashes(this.deps.db.db, shopId, hashes.slice(i, i + LOOKUP_CHUNK))));
    }
    const views = new Map<string, ProductImageView>(unique.map((link) => [link, UNKNOWN_PICTURE]));
    for (const row of rows) {
      const link = byHash.get(row.hash);
      if (link !== undefined) views.set(link, this.viewOf(shopId, link, row));
    }
    return views;
  }

  /**
   * What a picture's row says (`row` undefined: no row, the picture is unknown or too long
   * to download), for a caller that read the row itself: GET /products/get reads it with
   * the product (catalog products.repo.findServedProducts).
   */
  viewOf(shopId: string, link: string, row: Pick<repo.PictureRow, 'hash' | 'status' | 'error'> | undefined): ProductImageView {
    if (row?.status === 'done') return { resized: resizedLinks(this.deps.config.publicUrl, shopId, row.hash, link), error: null };
    if (row?.status === 'failed') return { resized: null, error: row.error ?? 'The picture could not be downloaded.' };
    return UNKNOWN_PICTURE;
  }

  /** The stored file of one thumbnail (GET /images/…), or undefined. */
  findThumbnail(ref: ThumbnailRef): Promise<StoredThumbnail | undefined> {
    return this.store.stat(ref);
  }
}
