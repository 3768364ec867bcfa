import { describe, expect, it } from 'vitest';
import { sniffPictureFormat } from '../../../src/modules/images/domain/image-format.js';
import { hashLink, parseThumbnailRef, resizedLinks } from '../../../src/modules/images/domain/links.js';

const SHOP = '0123456789abcdef0123456789abcd';
const HASH = hashLink('https://shop.example/a.jpg');

describe('picture names', () => {
  it('names a picture by the SHA-256 of its exact link, so a changed link is a new picture', () => {
    expect(HASH).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLink('https://shop.example/a.jpg')).toBe(HASH);
    expect(hashLink('https://shop.example/a.jpg?v=2')).not.toBe(HASH);
  });

  it('accepts exactly a 30-hex shop id, a 64-hex hash and a listed size', () => {
    expect(parseThumbnailRef(SHOP, HASH, '310.jpg')).toEqual({ shopId: SHOP, hash: HASH, size: 310 });
  });

  it.each([
    [SHOP.toUpperCase(), HASH, '120.jpg'],
    [`${SHOP}0`, HASH, '120.jpg'],
    [SHOP, HASH.toUpperCase(), '120.jpg'],
    [SHOP, `${HASH}0`, '120.jpg'],
    [SHOP, '..', '120.jpg'],
    [SHOP, HASH, '100.jpg'],
    [SHOP, HASH, '1200.jpg'],
    [SHOP, HASH, '120.jpeg'],
    [SHOP, HASH, '120.jpg/..'],
    [SHOP, HASH, '../120.jpg'],
    [SHOP, HASH, ' 120.jpg'],
    ['../../etc', HASH, '120.jpg'],
  ])('refuses %s / %s / %s', (shopId, hash, file) => {
    expect(parseThumbnailRef(shopId, hash, file)).toBeUndefined();
  });

  it('links every size under the public URL and keeps the original link', () => {
    const links = resizedLinks('https://patron.example', SHOP, HASH, 'https://shop.example/a.jpg');
    expect(Object.keys(links)).toEqual(['120', '140', '160', '180', '200', '220', '310', '520', 'original']);
    expect(links['220']).toBe(`https://patron.example/images/${SHOP}/${HASH}/220.jpg`);
    expect(links.original).toBe('https://shop.example/a.jpg');
  });
});

describe('sniffPictureFormat', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['png', bytes([0x89], 'PNG\r\n\x1a\n')],
    ['gif', bytes('GIF89a')],
    ['gif', bytes('GIF87a')],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBP')],
    ['avif', bytes([0, 0, 0, 0x1c], 'ftypavif')],
  ])('recognises %s by its first bytes', (format, data) => {
    expect(sniffPictureFormat(data)).toBe(format);
  });

  it.each([
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['HTML', bytes('<!doctype html>')],
    ['a truncated JPEG signature', bytes([0xff, 0xd8])],
    ['an empty file', bytes()],
    ['an MP4 video', bytes([0, 0, 0, 0x18], 'ftypmp42')],
  ])('refuses %s', (_name, data) => {
    expect(sniffPictureFormat(data)).toBeUndefined();
  });
});
