/**
 * Which raster formats a downloaded picture may be in, judged by its first bytes rather
 * than by the server's Content-Type (which is often wrong, and which an attacker
 * chooses). SVG is deliberately absent: it is a document, not a picture, and rendering
 * one means running an XML parser and a renderer on input from anywhere.
 */

export type PictureFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

export const SUPPORTED_FORMATS_TEXT = 'JPEG, PNG, GIF, WebP or AVIF';

export function sniffPictureFormat(bytes: Uint8Array): PictureFormat | undefined {
  const ascii = (start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 8) === 'PNG\r\n\x1a\n') return 'png';
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  // ISO BMFF: a box of type `ftyp` whose major brand is an AVIF brand.
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp' && (ascii(8, 12) === 'avif' || ascii(8, 12) === 'avis')) {
    return 'avif';
  }
  return undefined;
}
