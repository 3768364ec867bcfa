/**
 * The shapes other modules use from images (the product mapper builds `image_url_resized`
 * and not_widgetable's `image_downloading_error` from a ProductImageView).
 */

/** The square thumbnail sizes of interface.md, Product, `image_url_resized`, in pixels. */
export const THUMBNAIL_SIZES = [120, 140, 160, 180, 200, 220, 310, 520] as const;

export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];

/** What Patron knows of one picture link of a shop. */
export interface ProductImageView {
  /**
   * Absolute links keyed by every size of THUMBNAIL_SIZES (as strings) plus `original`
   * (the feed's own link); null until the thumbnails exist.
   */
  readonly resized: Record<string, string> | null;
  /** Why the download failed (one sentence), or null when it did not fail (done or still pending). */
  readonly error: string | null;
}

/**
 * A catalog landing as images hears it: the shop's new served generation. The catalog
 * (a module above images: it reads their views) runs the listener of images.service.ts
 * in its landing transaction; images owns this shape, so that it never imports the
 * catalog.
 */
export interface ImagesLanding {
  readonly shopId: string;
  readonly generation: number;
}

/** What one download job did (logged; tests assert on it). */
export interface ImageRunSummary {
  /** True when a newer import had landed, so this run left the work to that import's job. */
  readonly superseded: boolean;
  readonly done: number;
  readonly failed: number;
}
