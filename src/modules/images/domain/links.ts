import crypto from 'node:crypto';
import { SHOP_ID_PATTERN } from '../../shops/index.js';
import { THUMBNAIL_SIZES, type ThumbnailSize } from '../images.types.js';

/**
 * Names of pictures and their thumbnails. Pure: hashing is deterministic, no I/O.
 *
 * A picture is named by the SHA-256 of its link as the feed wrote it, so the same link
 * shown by many products is one picture, and a changed link is a new picture (a new
 * path, which is what lets thumbnails be served as immutable).
 */

/** Feed links longer than this are not downloaded (no real picture link is this long). */
export const MAX_PICTURE_LINK_LENGTH = 2048;

const LINK_HASH_PATTERN = /^[0-9a-f]{64}$/;
const THUMBNAIL_FILE_PATTERN = /^(\d{3})\.jpg$/;

export function hashLink(link: string): string {
  // The one-shot form: the import hashes every offer's first picture (catalog_products.picture_hash).
  return crypto.hash('sha256', link, 'hex');
}

export interface ThumbnailRef {
  readonly shopId: string;
  readonly hash: string;
  readonly size: ThumbnailSize;
}

/**
 * Validates the three segments of `/images/<shop_id>/<hash>/<size>.jpg` strictly: 30
 * lower-case hex, 64 lower-case hex, a size of THUMBNAIL_SIZES. Nothing else (no dots,
 * no slashes, no encodings) can reach the file system.
 */
export function parseThumbnailRef(shopId: string, hash: string, file: string): ThumbnailRef | undefined {
  if (!SHOP_ID_PATTERN.test(shopId) || !LINK_HASH_PATTERN.test(hash)) return undefined;
  const size = Number(THUMBNAIL_FILE_PATTERN.exec(file)?.[1]);
  if (!(THUMBNAIL_SIZES as readonly number[]).includes(size)) return undefined;
  return { shopId, hash, size: size as ThumbnailSize };
}

export function thumbnailFileName(size: ThumbnailSize): string {
  return `${size}.jpg`;
}

/** `image_url_resized`: an absolute link per size under `publicUrl`, and the feed's link as `original`. */
export function resizedLinks(publicUrl: string, shopId: string, hash: string, original: string): Record<string, string> {
  const links: Record<string, string> = {};
  for (const size of THUMBNAIL_SIZES) {
    links[String(size)] = `${publicUrl}/images/${shopId}/${hash}/${thumbnailFileName(size)}`;
  }
  links.original = original;
  return links;
}
