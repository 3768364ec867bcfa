import type SharpFactory from 'sharp';
import type { OutputInfo } from 'sharp';
import { THUMBNAIL_SIZES, type ThumbnailSize } from './images.types.js';
import { sniffPictureFormat, SUPPORTED_FORMATS_TEXT } from './domain/image-format.js';

/**
 * Square thumbnails of a downloaded picture, made with sharp (libvips).
 *
 * Contain on white, not cover: a product photo cropped to a square loses the top of a
 * bottle or the ends of a sofa, and shops show products whole on white; transparent
 * pictures are flattened onto the same white. JPEG, not WebP: the thumbnails go into
 * emails and widgets, and mail clients (Outlook among them) still do not show WebP;
 * with the background flattened there is no transparency for JPEG to lose.
 *
 * The picture is decoded once, into a 520-pixel master; the smaller sizes are scaled
 * from that master, so a 6000-pixel photo is not decoded eight times.
 */

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

let loading: Promise<typeof SharpFactory> | undefined;

/**
 * sharp (libvips) adds about 20 MB to a process once loaded: it is loaded on the first
 * thumbnail, so API processes that never make one (and `patron serve` until an import
 * brings pictures) do not carry it.
 */
function loadSharp(): Promise<typeof SharpFactory> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
const JPEG_QUALITY = 82;
const LARGEST = Math.max(...THUMBNAIL_SIZES);

export type ThumbnailsResult =
  | { readonly ok: true; readonly images: ReadonlyMap<ThumbnailSize, Buffer> }
  | { readonly ok: false; readonly reason: string };

export async function makeThumbnails(input: Buffer, options: { maxPixels: number }): Promise<ThumbnailsResult> {
  if (!sniffPictureFormat(input)) {
    return { ok: false, reason: `The file is not a picture in a supported format (${SUPPORTED_FORMATS_TEXT}).` };
  }
  const sharp = await loadSharp();
  // failOn 'error': real product photos often carry harmless decoder warnings; broken data still fails.
  const source = { limitInputPixels: options.maxPixels, failOn: 'error' as const, pages: 1 };
  let master: { data: Buffer; info: OutputInfo };
  try {
    // The header alone tells the size, so an oversized picture is refused before decoding.
    const meta = await sharp(input, source).metadata();
    if ((meta.width ?? 0) * (meta.height ?? 0) > options.maxPixels) return tooManyPixels(options.maxPixels);
    master = await sharp(input, { ...source, autoOrient: true })
      .flatten({ background: WHITE })
      .resize(LARGEST, LARGEST, { fit: 'contain', background: WHITE })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels(options.maxPixels);
    return { ok: false, reason: 'The file could not be read as a picture.' };
  }

  const raw = { width: master.info.width, height: master.info.height, channels: master.info.channels };
  const images = new Map<ThumbnailSize, Buffer>();
  for (const size of THUMBNAIL_SIZES) {
    let pipeline = sharp(master.data, { raw });
    if (size !== LARGEST) pipeline = pipeline.resize(size, size, { fit: 'fill' });
    images.set(size, await pipeline.jpeg({ quality: JPEG_QUALITY, mozjpeg: true }).toBuffer());
  }
  return { ok: true, images };
}

function tooManyPixels(maxPixels: number): ThumbnailsResult {
  const megapixels = Math.round(maxPixels / 1_000_000);
  return {
    ok: false,
    reason: megapixels >= 1 ? `The picture has more than ${megapixels} million pixels.` : `The picture has more than ${maxPixels} pixels.`,
  };
}
