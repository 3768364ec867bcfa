import { describe, expect, it } from 'vitest';
import { formatBytes, formatUnits, safeHref } from './catalog.queries';

describe('catalog helpers', () => {
  it('formats a price given in currency units in the shop currency, without float drift', () => {
    const shop = { timezone: 'Europe/Moscow', currency: 'RUB' };
    expect(formatUnits(1990.5, shop, 'en')).toBe('RUB\u00a01,990.50');
    expect(formatUnits(0.29, shop, 'en')).toBe('RUB\u00a00.29');
    expect(formatUnits(1500, { timezone: 'Asia/Tokyo', currency: 'JPY' }, 'en')).toBe('¥1,500');
  });

  it('follows only http(s) links from a feed', () => {
    expect(safeHref('https://shop.example/p/1')).toBe('https://shop.example/p/1');
    expect(safeHref('HTTP://shop.example/')).toBe('HTTP://shop.example/');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' javascript:alert(1)')).toBeUndefined();
    expect(safeHref(null)).toBeUndefined();
  });

  it('says a file size in words', () => {
    expect(formatBytes(800, 'en')).toBe('800 B');
    expect(formatBytes(4 * 1024 * 1024 + 64 * 1024, 'en')).toBe('4.1 MB');
  });
});
